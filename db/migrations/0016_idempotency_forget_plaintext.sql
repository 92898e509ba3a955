-- Stored replays made before issue 20 hold plaintext API keys, whsec_ secrets, TOTP secrets and patient
-- records, and belong to no credential: forget them all rather than keep secrets at rest for up to 24 h.
DELETE FROM "idempotency_keys";
