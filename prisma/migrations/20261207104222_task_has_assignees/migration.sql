-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "has_assignees" BOOLEAN NOT NULL DEFAULT false;

-- The tasks assigned before this migration.
UPDATE "tasks" SET "has_assignees" = true WHERE "id" IN (SELECT "task_id" FROM "task_assignees");
