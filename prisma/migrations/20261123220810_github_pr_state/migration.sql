-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "checks" TEXT,
ADD COLUMN     "pr_head_sha" TEXT,
ADD COLUMN     "pr_number" INTEGER,
ADD COLUMN     "pr_state" TEXT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "github_disconnect_reason" TEXT,
ADD COLUMN     "github_merged_to_done" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "github_deliveries" (
    "delivery_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "action" TEXT,
    "installation_id" INTEGER,
    "repo" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "result" TEXT,
    "error" TEXT,

    CONSTRAINT "github_deliveries_pkey" PRIMARY KEY ("delivery_id")
);

-- CreateIndex
CREATE INDEX "github_deliveries_repo_received_at_idx" ON "github_deliveries"("repo", "received_at");

-- CreateIndex
CREATE INDEX "github_deliveries_installation_id_received_at_idx" ON "github_deliveries"("installation_id", "received_at");

-- CreateIndex
CREATE INDEX "tasks_workspace_id_pr_url_idx" ON "tasks"("workspace_id", "pr_url");
