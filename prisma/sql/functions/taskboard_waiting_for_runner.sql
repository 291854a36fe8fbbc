-- Why a queued run is not being taken, as the API's `waiting_for_runner` (docs/runners.md): null
-- when an online runner with a free slot can take it, else {reason, message} with the reason
-- none_online, no_matching_labels (no online runner has every label of the run's profile),
-- workspace_limit (its workspace holds max_concurrent_runs runs) or all_busy (every runner that
-- could take it is full). The one definition, for the run and execution records
-- (lib/runs/waiting-for-runner.ts) and the board's task JSON (lib/db/task-json-sql.ts).
--
-- `profile` is the execution's agent_profile snapshot; `lease_seconds` is RUNNER_LEASE_SECONDS
-- (a runner is online while its last call is at most that old, as lib/dispatch/serialize.ts says).
-- It reads the runners table (a handful of rows) and, per online runner, its started runs on
-- executions(runner_id, status): cheap enough for each queued run of a page. Only the runners the
-- workspace lets take its jobs count (workspace_runner_choices, as the claim in
-- lib/dispatch/claim-job.ts reads it): none of those online is none_online, said in those words.
-- A dedicated runner counts only for the workspaces whose choice lists it.
-- `require_sandbox` is RUNNERS_REQUIRE_SANDBOX: then a runner that reported sandbox none takes
-- nothing and does not count either, and a run that waits only for such runners says so.
--
-- PL/pgSQL, not SQL, so its query is planned once per database session and kept: a SQL function
-- that is not inlined is planned again in every statement that calls it, and on the board that
-- planning was most of its cost (about 1 ms on PGlite per board read with queued runs).
-- Only `profile -> 'labels'` is read from the profile, so every profile without labels gets the
-- same answer in a workspace: the board asks once per read for those (lib/db/task-json-sql.ts).
CREATE OR REPLACE FUNCTION taskboard_waiting_for_runner(ws text, profile jsonb, lease_seconds integer, require_sandbox boolean) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    WITH online AS (
      SELECT COALESCE(profile -> 'labels', '[]'::jsonb) <@ to_jsonb(COALESCE(r.labels, '{}')) AS matches,
        r.capacity > (SELECT count(*) FROM executions x
                      WHERE x.runner_id = r.id AND x.status IN ('running', 'waiting_for_input')) AS has_room
      FROM runners r LEFT JOIN workspace_runner_choices c ON c.workspace_id = ws
      WHERE r.revoked_at IS NULL AND r.last_seen_at >= now() - make_interval(secs => lease_seconds)
        AND NOT (require_sandbox AND r.sandbox IS NOT DISTINCT FROM 'none')
        AND CASE WHEN c.workspace_id IS NULL THEN NOT r.dedicated
                 ELSE r.id = ANY(COALESCE(c.runner_ids, '{}'::text[])) END
    ), verdict AS (
      SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM online) THEN 'none_online'
        WHEN NOT EXISTS (SELECT 1 FROM online WHERE matches) THEN 'no_matching_labels'
        WHEN w.max_concurrent_runs <= (SELECT count(*) FROM executions x
                                       WHERE x.status IN ('running', 'waiting_for_input') AND x.workspace_id = ws) THEN 'workspace_limit'
        WHEN NOT EXISTS (SELECT 1 FROM online WHERE matches AND has_room) THEN 'all_busy'
      END AS reason, w.max_concurrent_runs AS cap
      FROM workspaces w WHERE w.id = ws
    )
    SELECT json_build_object('reason', reason, 'message', CASE reason
      WHEN 'none_online' THEN CASE
        WHEN require_sandbox AND EXISTS (SELECT 1 FROM runners r WHERE r.revoked_at IS NULL AND r.sandbox = 'none'
                                           AND r.last_seen_at >= now() - make_interval(secs => lease_seconds))
        THEN 'Waiting for a runner: none with a sandbox is online, and this server gives no jobs to runners without one (RUNNERS_REQUIRE_SANDBOX)'
        WHEN EXISTS (SELECT 1 FROM workspace_runner_choices c WHERE c.workspace_id = ws)
        THEN 'Waiting for a runner: none of the runners this workspace allows is online (Settings → Runners)'
        WHEN EXISTS (SELECT 1 FROM runners r WHERE r.revoked_at IS NULL AND r.dedicated
                       AND r.last_seen_at >= now() - make_interval(secs => lease_seconds))
        THEN 'Waiting for a runner: the ones online take only the workspaces that chose them (Settings → Runners)'
        ELSE 'Waiting for a runner: none is online' END
      WHEN 'no_matching_labels' THEN 'Waiting for a runner with the labels '
        || (SELECT string_agg(label, ', ') FROM jsonb_array_elements_text(profile -> 'labels') AS label)
        || ': no online runner has them all'
      WHEN 'workspace_limit' THEN 'Waiting for a runner: this workspace already runs its maximum of ' || cap || ' at once'
      ELSE 'Waiting for a runner: every runner that can take it is busy' END)
    FROM verdict WHERE reason IS NOT NULL
  );
END
$$;
