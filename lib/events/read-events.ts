import { statement, type Sql } from "@/lib/db/sql";

// Reading the workspace event log from a cursor (an event id), for the event streams.

export interface EventPage {
  /** The newest event id of the workspace when read ("0" before its first event). */
  head: string;
  /** Events up to here were deleted by retention: a reader whose cursor is below it missed some. */
  prunedThrough: string;
  /** Events after the cursor, oldest first, each as the JSON text of a WorkspaceEvent. */
  events: { id: string; type: string; json: string }[];
}

/**
 * Up to `limit` events after `after`, with the workspace's head, in ONE statement (one snapshot):
 * if `after` is at or above prunedThrough, every event after it is still in the log. With `after`
 * null no events are read, only the head (a reader starting "from now").
 */
export async function readEvents(sql: Sql, workspaceId: string, after: string | null, limit: number): Promise<EventPage> {
  const rows = await sql<{ head: string; pruned_through: string; id: string | null; type: string | null; json: string | null }>(
    EVENTS_AFTER,
    [workspaceId, after, limit],
  );
  return {
    head: rows[0].head,
    prunedThrough: rows[0].pruned_through,
    events: rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id, type: row.type!, json: row.json! }])),
  };
}

/** Whether a reader at `cursor` has missed events that are gone (or holds a cursor this log never gave out). */
export function isBehindLog(page: EventPage, cursor: string): boolean {
  const at = BigInt(cursor);
  return at < BigInt(page.prunedThrough) || at > BigInt(page.head);
}

/** The JSON text of an event row (alias `x`) in its public shape (WorkspaceEvent): what streams and webhooks send. */
export function eventJsonSql(x: string): string {
  return `json_build_object(
       'id', ${x}.id::text, 'type', ${x}.type, 'workspace_id', ${x}.workspace_id, 'task_id', ${x}.task_id, 'actor', ${x}.actor,
       'at', taskboard_iso(${x}.at), 'data', ${x}.data)::text`;
}

// The events are read on (workspace_id, id), never on the primary key (id): on id, the scan walks
// every workspace's events after the cursor to find this one's, which for a quiet workspace beside a
// busy one is all of the busy one's (200,000 entries, 74 ms, for a page of 100). The statement has
// one generic plan (lib/db/sql.ts) and the planner cannot know the skew, so the form leaves it no
// choice: the workspace as a range of one value (an equality would make the order by it redundant)
// and the order by (workspace_id, id), which only that index gives without a sort of every match.
// The range still starts the index scan at (workspace, cursor) and ends it after the workspace.
// lib/events/read-events-plan.test.ts holds it.
export const EVENTS_AFTER = statement(
  "workspace_events_after",
  `SELECT COALESCE(h.last_id, 0)::text AS head, COALESCE(h.pruned_through, 0)::text AS pruned_through, e.id, e.type, e.json
   FROM (SELECT $1::text AS workspace_id) w
   LEFT JOIN workspace_event_heads h ON h.workspace_id = w.workspace_id
   LEFT JOIN LATERAL (
     SELECT x.id::text AS id, x.id AS n, x.type, ${eventJsonSql("x")} AS json
     FROM workspace_events x
     WHERE x.workspace_id >= w.workspace_id AND x.workspace_id <= w.workspace_id AND x.id > COALESCE($2::bigint, h.last_id, 0)
     ORDER BY x.workspace_id, x.id
     LIMIT $3::int
   ) e ON true
   ORDER BY e.n`,
);
