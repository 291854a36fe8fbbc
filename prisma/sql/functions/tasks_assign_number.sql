-- Trigger function of "tasks" (tasks_assign_number, BEFORE INSERT FOR EACH ROW): every new task
-- takes the next number of its workspace, whichever path inserts it. The workspace row's lock
-- orders concurrent creates, so numbers are never shared or skipped by a commit, and a deleted
-- task's number is never given again.
CREATE OR REPLACE FUNCTION tasks_assign_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workspaces SET task_count = task_count + 1 WHERE id = NEW.workspace_id RETURNING task_count INTO NEW.number;
  RETURN NEW;
END $$;
