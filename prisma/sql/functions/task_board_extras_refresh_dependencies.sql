-- The dependency columns of task_board_extras, refreshed for the given tasks the way
-- task_board_extras_refresh refreshes the others: rows created and locked first, in id order, then
-- computed. `open_blockers` counts blockers whose status is not done.
CREATE OR REPLACE FUNCTION "task_board_extras_refresh_dependencies"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "task_board_extras" ("task_id")
  SELECT "id" FROM "tasks" WHERE "id" = ANY(task_ids) ORDER BY "id"
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "task_board_extras" WHERE "task_id" = ANY(task_ids) ORDER BY "task_id" FOR UPDATE;
  UPDATE "task_board_extras" e SET
    "blocked_by" = ARRAY(SELECT d."blocker_id" FROM "task_dependencies" d WHERE d."task_id" = e."task_id" ORDER BY d."created_at", d."blocker_id"),
    "blocks" = ARRAY(SELECT d."task_id" FROM "task_dependencies" d WHERE d."blocker_id" = e."task_id" ORDER BY d."created_at", d."task_id"),
    "open_blockers" = (
      SELECT count(*) FROM "task_dependencies" d JOIN "tasks" b ON b."id" = d."blocker_id"
      WHERE d."task_id" = e."task_id" AND b."status" <> 'done')
  WHERE e."task_id" = ANY(task_ids);
END
$$;
