-- Trigger function of "tasks" (tasks_board_extras_delete): the task_board_extras row of a deleted
-- task goes with it (task_board_extras_refresh never creates one for a task that is gone, whichever
-- of the two runs first).
CREATE OR REPLACE FUNCTION "task_board_extras_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "task_board_extras" WHERE "task_id" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END
$$;
