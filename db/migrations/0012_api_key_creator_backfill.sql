-- Creators of keys minted before the type was recorded. A tenant principal always had a key or user id, so
-- a missing creator was the CLI or the demo seed (platform); a creator with no tenant (an ops key or an ops
-- user) is the platform too.
UPDATE "api_keys" AS k
SET "created_by_type" = CASE
  WHEN k."created_by" IS NULL THEN 'ops'
  WHEN EXISTS (SELECT 1 FROM "api_keys" AS c WHERE c."id" = k."created_by" AND c."tenant_id" IS NULL) THEN 'ops'
  WHEN EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = k."created_by" AND u."tenant_id" IS NULL) THEN 'ops'
  WHEN k."created_by" LIKE 'usr\_%' THEN 'user'
  ELSE 'api_key'
END
WHERE k."tenant_id" IS NOT NULL AND k."created_by_type" IS NULL;
