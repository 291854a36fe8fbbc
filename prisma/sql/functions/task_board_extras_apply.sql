-- Trigger function of "task_runs" and "questions" (*_board_extras_insert/update/delete, FOR EACH
-- STATEMENT; migration 20261122205830_task_board_extras): one refresh per statement, of every task
-- the statement touched (before and after, should a question or run change task).
CREATE OR REPLACE FUNCTION "task_board_extras_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT "task_id" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT "task_id" FROM old_rows);
  ELSE
    touched := ARRAY(SELECT "task_id" FROM new_rows UNION SELECT "task_id" FROM old_rows);
  END IF;
  -- A task's delete cascades here once per task, mostly with no rows.
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh"(touched);
  END IF;
  RETURN NULL;
END
$$;
