-- Issue 49 item 2: a person's e-mail address has one spelling, trimmed and lower-cased, wherever it is stored
-- (server/lib/email.ts); rows written before that are brought to it here. Addresses pass the API's e-mail check,
-- which admits ASCII only, so lower() folds them the same under any collation. No statement here can fail on
-- real data.
--
-- Patients: every address. No index is unique on it; matching already ignored case (patients_email_idx is on
-- lower(email)), so no match changes.
UPDATE "patients"
SET "email" = lower(btrim("email"))
WHERE "email" IS NOT NULL AND "email" <> lower(btrim("email"));
--> statement-breakpoint
-- Users: an address is lower-cased only when no other user's folds to the same one. Where two accounts differ
-- only by case (users_email_idx is unique, so folding both would fail, and folding one would hand the address's
-- sign-in to whichever was picked), both are left exactly as they were: sign-in has compared the lower-cased
-- address since it existed, so such a row could not sign in before and cannot now, and a new account cannot take
-- the address (createUser compares ignoring case). Ops settles each such pair by hand (docs/decisions/http.md).
UPDATE "users" AS u
SET "email" = lower(btrim(u."email"))
WHERE u."email" <> lower(btrim(u."email"))
  AND NOT EXISTS (
    SELECT 1 FROM "users" AS o
    WHERE o."id" <> u."id" AND lower(btrim(o."email")) = lower(btrim(u."email"))
  );
--> statement-breakpoint
-- A submission's reconciled person (intake_answers.facts, decision 31): what resolving an identity mismatch as
-- `new` makes the new patient from.
UPDATE "intake_answers"
SET "facts" = jsonb_set("facts", '{email}', to_jsonb(lower(btrim("facts"->>'email'))))
WHERE jsonb_typeof("facts"->'email') = 'string' AND "facts"->>'email' <> lower(btrim("facts"->>'email'));
