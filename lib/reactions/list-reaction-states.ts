import type { Db } from "@/lib/db/client";
import { STREAM_ONLY_EVENT_TYPES } from "@/lib/events/event-types";
import { REACTIONS } from "@/lib/reactions/reactions";
import type { ReactionState } from "@/lib/reactions/schemas";

type Row = {
  name: string;
  cursor: string;
  behind: number;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_error_event_id: string | null;
  processed_at: Date | null;
};

/**
 * Every reaction's state in one workspace, in REACTIONS' order (one statement, one row per reaction).
 * `behind` counts the events after the cursor but not a running agent's live log (execution.log):
 * those wake no reaction, so a cursor passes over them only with the next other event, and until
 * then they are not work to do. The count walks the (workspace_id, id) index from the cursor, which
 * retention bounds (EVENT_RETENTION_EVENTS).
 */
export async function listReactionStates(db: Db, workspaceId: string): Promise<ReactionState[]> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT r.name, COALESCE(c.cursor, 0)::text AS cursor,
            (SELECT count(*) FROM workspace_events e
              WHERE e.workspace_id = $1 AND e.id > COALESCE(c.cursor, 0) AND e.type <> ALL($3::text[]))::int AS behind,
            COALESCE(c.attempts, 0) AS attempts, c.next_attempt_at, c.last_error, c.last_error_at,
            c.last_error_event_id::text AS last_error_event_id, c.processed_at
     FROM unnest($2::text[]) WITH ORDINALITY AS r(name, ord)
     LEFT JOIN reaction_cursors c ON c.reaction = r.name AND c.workspace_id = $1
     ORDER BY r.ord`,
    workspaceId,
    REACTIONS.map((reaction) => reaction.name),
    STREAM_ONLY_EVENT_TYPES,
  );
  return rows.map((row, index) => ({
    name: row.name,
    description: REACTIONS[index].description,
    cursor: row.cursor,
    behind: row.behind,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_error: row.last_error,
    last_error_at: row.last_error_at?.toISOString() ?? null,
    last_error_event_id: row.last_error_event_id,
    processed_at: row.processed_at?.toISOString() ?? null,
  }));
}
