-- Trigger function of "tasks" (tasks_count_insert/delete/update, FOR EACH STATEMENT; created in
-- migration 20261121194610_task_column_counts). Every statement that inserts, deletes or moves tasks
-- adds its net change per (workspace, column) to task_column_counts in ONE upsert whose rows are
-- sorted, so concurrent writers lock counter rows in the same order. Rows that reach zero are
-- removed, which also cleans up after a deleted workspace. The board's column totals read it.
CREATE OR REPLACE FUNCTION "task_column_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "task_column_counts" AS c ("workspace_id", "status", "count")
    SELECT "workspace_id", "status", count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("workspace_id", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "task_column_counts" AS c ("workspace_id", "status", "count")
    SELECT "workspace_id", "status", -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("workspace_id", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
    DELETE FROM "task_column_counts" WHERE "count" = 0 AND "workspace_id" IN (SELECT DISTINCT "workspace_id" FROM old_rows);
  ELSE
    INSERT INTO "task_column_counts" AS c ("workspace_id", "status", "count")
    SELECT "workspace_id", "status", sum(delta) FROM (
      SELECT "workspace_id", "status", -1 AS delta FROM old_rows
      UNION ALL
      SELECT "workspace_id", "status", 1 AS delta FROM new_rows
    ) d GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT ("workspace_id", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
    DELETE FROM "task_column_counts" WHERE "count" = 0 AND "workspace_id" IN (SELECT DISTINCT "workspace_id" FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;
