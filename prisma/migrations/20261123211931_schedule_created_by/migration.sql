-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "created_by" TEXT,
ADD COLUMN     "last_error" TEXT;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Schedules made before this recorded no creator; their runs acted as the workspace's first owner,
-- so that owner becomes their creator.
UPDATE "schedules" s SET "created_by" = (
  SELECT m."user_id" FROM "memberships" m
  WHERE m."workspace_id" = s."workspace_id" AND m."role" = 'owner'
  ORDER BY m."created_at" ASC LIMIT 1)
WHERE s."created_by" IS NULL;
