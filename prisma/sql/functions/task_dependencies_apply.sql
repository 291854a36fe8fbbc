-- Trigger function of "task_dependencies" (task_dependencies_insert/delete, FOR EACH STATEMENT): a
-- dependency added or removed (by hand, or by the cascade of a deleted task) refreshes both of its
-- tasks.
CREATE OR REPLACE FUNCTION "task_dependencies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT "task_id" FROM new_rows UNION SELECT "blocker_id" FROM new_rows);
  ELSE
    touched := ARRAY(SELECT "task_id" FROM old_rows UNION SELECT "blocker_id" FROM old_rows);
  END IF;
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh_dependencies"(touched);
  END IF;
  RETURN NULL;
END
$$;
