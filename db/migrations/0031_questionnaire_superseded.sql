-- Issue 50 item 3 (DESIGN decision 45): approving a questionnaire version supersedes every older pending version
-- of its key; the version records which approval superseded it and when.
ALTER TABLE "questionnaires" ADD COLUMN "superseded_by" text;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
-- Pending versions already passed by an approval: the API refused to approve them (a newer version was approved)
-- but they stayed in the provider's queue. They become `superseded`, by the first approval of a newer version
-- (approvals only ever moved up in version, so the lowest newer version ever approved is the first one).
UPDATE "questionnaires" AS q
SET "status" = 'superseded',
  "superseded_by" = (
    SELECT a."id" FROM "questionnaires" AS a
    WHERE a."tenant_id" = q."tenant_id" AND a."livemode" = q."livemode" AND a."key" = q."key"
      AND a."approved_at" IS NOT NULL AND a."version" > q."version"
    ORDER BY a."version" LIMIT 1
  ),
  "superseded_at" = (
    SELECT a."approved_at" FROM "questionnaires" AS a
    WHERE a."tenant_id" = q."tenant_id" AND a."livemode" = q."livemode" AND a."key" = q."key"
      AND a."approved_at" IS NOT NULL AND a."version" > q."version"
    ORDER BY a."version" LIMIT 1
  ),
  "updated_at" = now()
WHERE q."status" = 'pending'
  AND EXISTS (
    SELECT 1 FROM "questionnaires" AS a
    WHERE a."tenant_id" = q."tenant_id" AND a."livemode" = q."livemode" AND a."key" = q."key"
      AND a."approved_at" IS NOT NULL AND a."version" > q."version"
  );
