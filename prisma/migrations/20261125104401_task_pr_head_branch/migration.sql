-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "pr_head_branch" TEXT;
