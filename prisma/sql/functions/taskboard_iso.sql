-- A timestamp as the API serves it: ISO 8601 in UTC with milliseconds, like Date.toISOString().
-- The one definition of that format, for SQL functions (task_board_extras_refresh) and for the
-- statements that write response JSON in SQL (lib/tasks/load-tasks.ts, lib/events, lib/activity).
--
-- STABLE, not IMMUTABLE, because to_char is: a SQL function whose body is no more volatile than
-- declared is inlined by the planner, so a call costs what the expression it stands for costs.
CREATE OR REPLACE FUNCTION taskboard_iso(ts timestamptz) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
