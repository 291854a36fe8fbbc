import { statement, type Sql } from "@/lib/db/sql";
import { eventPruneIntervalMs, eventRetentionDays, eventRetentionEvents } from "@/lib/config";
import { STREAM_ONLY_EVENT_TYPES } from "@/lib/events/event-types";

// Keeps the event log bounded: per workspace, events older than EVENT_RETENTION_DAYS and all but
// the newest EVENT_RETENTION_EVENTS are deleted. The head row remembers how far (pruned_through),
// so a stream whose cursor lies below it knows it missed events and sends `reset` instead.

/** Prunes every workspace's log once; returns how many events were deleted. */
export async function pruneEvents(sql: Sql): Promise<number> {
  const [row] = await sql<{ deleted: number }>(PRUNE, [eventRetentionEvents(), eventRetentionDays(), STREAM_ONLY_EVENT_TYPES]);
  return row.deleted;
}

export function startEventPruning(sql: Sql): () => void {
  const tick = () => void pruneEvents(sql).catch((error) => console.error(`[taskboard] event log pruning: ${(error as Error).message}`));
  const interval = setInterval(tick, eventPruneIntervalMs());
  interval.unref();
  tick();
  return () => clearInterval(interval);
}

// `cut` is, per workspace, the newest id to delete: the one just past the newest $1, or the newest
// older than $2 days (scanning back from the newest, so at most about $1 index entries each). The
// delete and the heads' update are one statement, so a reader sees both or neither. $3: the
// stream-only types, whose loss no background worker minds (pruned_background_through).
const PRUNE = statement(
  "workspace_events_prune",
  `WITH cut AS (
     SELECT h.workspace_id, GREATEST(
       (SELECT e.id FROM workspace_events e WHERE e.workspace_id = h.workspace_id ORDER BY e.id DESC OFFSET $1::int LIMIT 1),
       (SELECT e.id FROM workspace_events e WHERE e.workspace_id = h.workspace_id
          AND e.at < now() - make_interval(days => $2::int) ORDER BY e.id DESC LIMIT 1)) AS through
     FROM workspace_event_heads h
   ),
   gone AS (
     DELETE FROM workspace_events e USING cut
     WHERE e.workspace_id = cut.workspace_id AND e.id <= cut.through
     RETURNING e.id, e.workspace_id, e.type
   ),
   moved AS (
     UPDATE workspace_event_heads h SET pruned_through = cut.through,
       pruned_background_through = GREATEST(h.pruned_background_through, COALESCE(
         (SELECT max(g.id) FROM gone g WHERE g.workspace_id = h.workspace_id AND g.type <> ALL($3::text[])), 0))
     FROM cut
     WHERE h.workspace_id = cut.workspace_id AND cut.through > h.pruned_through
     RETURNING h.workspace_id
   )
   SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT count(*) FROM moved)::int AS workspaces`,
);
