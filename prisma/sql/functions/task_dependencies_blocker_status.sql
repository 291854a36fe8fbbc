-- Trigger function of "tasks" (tasks_dependencies_status, AFTER UPDATE FOR EACH STATEMENT): a task
-- that moves into or out of done changes its dependants' open-blocker count. Most updates touch no
-- such task, and then this is one join of the statement's rows and no write.
CREATE OR REPLACE FUNCTION "task_dependencies_blocker_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  touched := ARRAY(
    SELECT DISTINCT d."task_id"
    FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    JOIN "task_dependencies" d ON d."blocker_id" = n."id"
    WHERE (n."status" = 'done') IS DISTINCT FROM (o."status" = 'done'));
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh_dependencies"(touched);
  END IF;
  RETURN NULL;
END
$$;
