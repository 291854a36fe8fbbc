-- AlterTable
ALTER TABLE "task_runs" ADD COLUMN     "commit_sha" TEXT,
ADD COLUMN     "files_changed" INTEGER,
ADD COLUMN     "lines_added" INTEGER,
ADD COLUMN     "lines_removed" INTEGER;

-- AlterTable
ALTER TABLE "workspace_repositories" ADD COLUMN     "worktree_retention_days" INTEGER NOT NULL DEFAULT 7;

-- CreateTable
CREATE TABLE "task_worktrees" (
    "task_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_worktrees_pkey" PRIMARY KEY ("task_id")
);

-- CreateIndex
CREATE INDEX "task_worktrees_workspace_id_idx" ON "task_worktrees"("workspace_id");

-- AddForeignKey
ALTER TABLE "task_worktrees" ADD CONSTRAINT "task_worktrees_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The board's JSON of a run (task_board_extras, built from every served column of task_runs since
-- acp_runs_log_entries) gains the four new columns: refresh the rows.
SELECT "task_board_extras_refresh"(ARRAY(SELECT DISTINCT "task_id" FROM "task_runs"));
