import type { Prisma } from "@/lib/generated/prisma/client";
import { currentActor } from "@/lib/events/actor";
import { STREAM_ONLY_EVENT_TYPES, type EventType } from "@/lib/events/event-types";
import { noteRecorded } from "@/lib/events/recorded-events";
import { taskJsonSql } from "@/lib/db/task-json-sql";

// The outbox: a change's events are written to the workspace event log inside the change's own
// transaction, so they commit (or roll back) with it; a crash after commit loses nothing. A
// trigger on the log NOTIFYs at commit, which wakes the event streams (lib/events/wake.ts).

type Tx = Prisma.TransactionClient;

export interface NewEvent {
  type: EventType;
  taskId: string | null;
  /** The payload. Leave it out for a task event: the task as this transaction leaves it is stored. */
  data?: unknown;
}

/**
 * Appends events to a workspace's log; call it as the LAST thing a transaction does.
 *
 * It first locks the workspace's event head row and only then takes ids from the sequence, so two
 * transactions writing events for one workspace take ids in the order they commit: a reader that
 * has seen id N never later finds a smaller id appear (docs/events.md). The lock is held until
 * commit, so taking it last keeps it short and keeps the lock order "rows, columns, then head"
 * (no deadlock with the column locks of lib/tasks/positions.ts). Lock and append are one
 * statement (appendSql); only a workspace's first events, which have no head row yet, take two.
 */
export async function recordEvents(tx: Tx, workspaceId: string, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await append(tx, workspaceId, events, events.every((event) => event.data !== undefined) ? APPEND_GIVEN : APPEND);
}

/**
 * Records one event of a task, with the task as this transaction leaves it as its data, and
 * returns that data: the task's JSON text (taskJson, as lib/tasks/load-tasks.ts reads it). A write
 * answers with it, read inside its own transaction, rather than reading the task again after commit.
 */
export async function recordTaskEvent(tx: Tx, workspaceId: string, type: EventType, taskId: string): Promise<string> {
  const { data } = await append(tx, workspaceId, [{ type, taskId }], APPEND_RETURNING_TASK);
  return data!;
}

async function append(tx: Tx, workspaceId: string, events: NewEvent[], statement: string) {
  const rows = events.map((event) => ({
    type: event.type,
    task_id: event.taskId,
    ...(event.data === undefined ? {} : { data: event.data }),
  }));
  const appendEvents = () =>
    tx.$queryRawUnsafe<{ last_id: string; data?: string | null }[]>(
      statement,
      workspaceId,
      JSON.stringify(currentActor()),
      JSON.stringify(rows),
      STREAM_ONLY_EVENT_TYPES,
    );
  let [head] = await appendEvents();
  if (!head) {
    // The workspace's first events: with no head row to lock, the statement appended nothing. The
    // row is made (and locked until commit) first, as a concurrent first writer waits on it.
    await tx.$executeRawUnsafe(CREATE_HEAD, workspaceId);
    [head] = await appendEvents();
  }
  noteRecorded(
    workspaceId,
    head.last_id,
    events.map((event) => event.type),
  );
  return { data: head.data ?? null };
}

/** Several workspaces' events in one transaction: heads are locked in id order, so two such transactions cannot deadlock. */
export async function recordEventsOfWorkspaces(tx: Tx, events: (NewEvent & { workspaceId: string })[]): Promise<void> {
  const byWorkspace = new Map<string, NewEvent[]>();
  for (const { workspaceId, ...event } of events) byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), event]);
  for (const workspaceId of [...byWorkspace.keys()].sort()) await recordEvents(tx, workspaceId, byWorkspace.get(workspaceId)!);
}

// A no-op update when the row exists (another first writer made it meanwhile): its point is the
// row lock, held until commit.
const CREATE_HEAD = `INSERT INTO workspace_event_heads (workspace_id) VALUES ($1)
  ON CONFLICT (workspace_id) DO UPDATE SET last_id = workspace_event_heads.last_id`;

// $1 workspace, $2 the actor (JSON), $3 the events (JSON array of {type, task_id, data?}), in order,
// $4 the stream-only types (they move last_id, not last_background_id). `data`: each event's payload.
// `returnData`: the last event's data comes back too, as text (json keeps it as it was written).
// The events are joined to `head`, so no row reaches the insert (whose defaults take the ids) before
// the head row is locked; with no head row nothing is appended and nothing returned.
const appendSql = (data: string, returnData = false) => `WITH head AS (
  SELECT workspace_id FROM workspace_event_heads WHERE workspace_id = $1 FOR UPDATE
),
added AS (
  INSERT INTO workspace_events (workspace_id, task_id, type, actor, at, data)
  SELECT $1, ev.value->>'task_id', ev.value->>'type', $2::json, clock_timestamp(), ${data}
  FROM json_array_elements($3::json) WITH ORDINALITY AS ev(value, ord) CROSS JOIN head
  ORDER BY ev.ord
  RETURNING id, type${returnData ? ", data" : ""}
)
UPDATE workspace_event_heads SET last_id = (SELECT max(id) FROM added),
  last_background_id = COALESCE((SELECT max(id) FROM added WHERE type <> ALL($4::text[])), last_background_id)
WHERE workspace_id = $1
RETURNING last_id::text AS last_id${returnData ? ", (SELECT a.data::text FROM added a ORDER BY a.id DESC LIMIT 1) AS data" : ""}`;

// A task event without data stores the task as the transaction leaves it.
const taskData = `COALESCE(ev.value->'data', ${taskJsonSql("$1", "ev.value->>'task_id'")}, json_build_object('id', ev.value->>'task_id'))`;
const APPEND = appendSql(taskData);
const APPEND_RETURNING_TASK = appendSql(taskData, true);
// When every event brings its payload (a run's live log, runs, questions…), the statement leaves the
// task's JSON out: it is never evaluated then, but PostgreSQL plans it on every execution (Prisma's
// statements are unprepared), which took about 4 ms of a live-log batch's 20 on PGlite
// (docs/PERFORMANCE.md, "sixth pass").
const APPEND_GIVEN = appendSql(`ev.value->'data'`);
