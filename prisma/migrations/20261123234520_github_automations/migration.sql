-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "auto_fix_checks_sha" TEXT,
ADD COLUMN     "auto_fix_conflicts_sha" TEXT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "github_auto_fix_checks" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "github_auto_fix_conflicts" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "github_auto_open_pull_request" BOOLEAN NOT NULL DEFAULT false;
