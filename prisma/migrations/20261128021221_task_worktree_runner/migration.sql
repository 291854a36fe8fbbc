-- Which runner reported a task's worktree (issue #35): the worktree sweep deletes files only for the
-- embedded runner's records, at the path the server derives itself; a remote runner's files are its
-- own to sweep. Rows from before stay null.
-- AlterTable
ALTER TABLE "task_worktrees" ADD COLUMN     "runner_id" TEXT;
