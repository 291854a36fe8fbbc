-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "auto_move_tasks" BOOLEAN NOT NULL DEFAULT true;
