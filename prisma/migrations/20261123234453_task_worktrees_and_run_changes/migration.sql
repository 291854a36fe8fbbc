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

-- The board's JSON of a run gains the branch's changes (commit_sha, files_changed, lines_added,
-- lines_removed): the function of migration task_board_extras, replaced with those four fields, and
-- every row refreshed.
CREATE OR REPLACE FUNCTION "task_board_extras_refresh"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Rows are created and locked first, in id order, and computed after: each statement of this
  -- (volatile) function sees what committed before it started, so a writer that waited here for
  -- another writer of the same task sees that one's runs and questions too.
  INSERT INTO "task_board_extras" ("task_id")
  SELECT "id" FROM "tasks" WHERE "id" = ANY(task_ids) ORDER BY "id"
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "task_board_extras" WHERE "task_id" = ANY(task_ids) ORDER BY "task_id" FOR UPDATE;
  UPDATE "task_board_extras" e SET
    "open_questions" = (
      SELECT json_agg(json_build_object(
               'id', q."id", 'workspace_id', q."workspace_id", 'task_id', q."task_id", 'task_title', NULL::text,
               'content', q."content", 'context', q."context", 'options', q."options", 'answer', q."answer",
               'status', q."status", 'priority', q."priority",
               'created_at', to_char(q."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'answered_at', to_char(q."answered_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             ORDER BY q."created_at", q."id")
      FROM "questions" q WHERE q."task_id" = e."task_id" AND q."status" = 'open'),
    "runs" = (
      SELECT json_agg(json_build_object(
               'id', r."id", 'task_id', r."task_id", 'session_id', r."session_id", 'attempt_number', r."attempt_number",
               'status', r."status", 'exit_code', r."exit_code", 'error_message', r."error_message",
               'started_at', to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'finished_at', to_char(r."finished_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'duration_seconds', r."duration_seconds", 'trigger', r."trigger",
               'commit_sha', r."commit_sha", 'files_changed', r."files_changed",
               'lines_added', r."lines_added", 'lines_removed', r."lines_removed")
             ORDER BY r."created_at" DESC, r."id")
      FROM (SELECT * FROM "task_runs" r0 WHERE r0."task_id" = e."task_id" ORDER BY r0."created_at" DESC, r0."id" LIMIT 10) r),
    ("latest_run_status", "latest_run_error", "latest_run_trigger") = (
      SELECT r1."status", r1."error_message", r1."trigger" FROM "task_runs" r1
      WHERE r1."task_id" = e."task_id" ORDER BY r1."created_at" DESC, r1."id" LIMIT 1)
  WHERE e."task_id" = ANY(task_ids);
END
$$;

SELECT "task_board_extras_refresh"(ARRAY(SELECT DISTINCT "task_id" FROM "task_runs"));
