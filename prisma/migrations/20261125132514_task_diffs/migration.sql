-- CreateTable
CREATE TABLE "task_diffs" (
    "task_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "execution_id" TEXT,
    "branch" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "base_sha" TEXT NOT NULL,
    "commit_sha" TEXT NOT NULL,
    "files_changed" INTEGER NOT NULL,
    "lines_added" INTEGER NOT NULL,
    "lines_removed" INTEGER NOT NULL,
    "truncated" BOOLEAN NOT NULL,
    "files" JSONB NOT NULL,
    "patch" TEXT NOT NULL,
    "patch_bytes" INTEGER NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_diffs_pkey" PRIMARY KEY ("task_id")
);

-- CreateIndex
CREATE INDEX "task_diffs_workspace_id_idx" ON "task_diffs"("workspace_id");

-- AddForeignKey
ALTER TABLE "task_diffs" ADD CONSTRAINT "task_diffs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
