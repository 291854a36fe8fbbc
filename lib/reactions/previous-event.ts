import type { Db } from "@/lib/db/client";
import type { EventType } from "@/lib/events/event-types";

// A reaction sees each event once, with the record as its transaction left it; whether something
// *changed* (a task moved into done, a run went to succeeded) it reads off the same record's previous
// event in the log. Bounded by the task's own events, not its runs' live log (the partial index on
// task_id, id, which the literal `type <> 'execution.log'` lets the planner use).

/**
 * The data of the newest event before `beforeId` of `taskId`, of one of `types`, about the record
 * `recordId` (its `data.id`); null when there is none (the first, or retention deleted it).
 */
export async function previousEventData<T>(
  db: Db,
  taskId: string,
  beforeId: string,
  types: readonly EventType[],
  recordId: string,
): Promise<T | null> {
  const rows = await db.$queryRawUnsafe<{ data: T | string }[]>(PREVIOUS_EVENT, taskId, beforeId, types, recordId);
  if (rows.length === 0) return null;
  const data = rows[0].data;
  return typeof data === "string" ? (JSON.parse(data) as T) : data;
}

/** $1 the task, $2 before this event id, $3 the types, $4 the record's id. */
export const PREVIOUS_EVENT = `SELECT data FROM workspace_events
  WHERE task_id = $1 AND type <> 'execution.log' AND id < $2::bigint AND type = ANY($3::text[]) AND data->>'id' = $4
  ORDER BY id DESC LIMIT 1`;
