import { AsyncResource } from "node:async_hooks";
import type { Db, Tx } from "@/lib/db/client";
import { eventJsonSql } from "@/lib/events/read-events";
import { onAnyWorkspaceEvents } from "@/lib/events/wake";

// The one mechanism for reading the workspace event log in the background, shared by the outbound
// webhook deliverer (lib/webhooks/deliver-webhooks.ts) and the reactions (lib/reactions/). A consumer
// keeps a cursor per workspace in its own table, claims a row with a lease (so one instance works on
// it at a time and a dead instance's lease runs out), takes the next event after the cursor, and
// moves the cursor only when the work for that event is done; a failed attempt is retried later
// with back-off. Every step is in the database, so a restart or another instance carries on.

const IDLE_POLL_MS = 30_000;
const MIN_TIMER_MS = 50;
// Measured with `npm run bench:writes` and a statement log of the API tests (docs/PERFORMANCE.md,
// "Background workers that settle"): the webhook and notification workers ran about 40 % fewer
// statements, and a flood of writes took 5-7 % less CPU a write.
const SETTLE_MS = 100;

export interface LogConsumer {
  /** For the log line of an unexpected failure. */
  name: string;
  /** How many claims this instance works on at once. */
  lanes: () => number;
  /** Claims one piece of due work and does it; false when there was none. */
  workOnce: () => Promise<boolean>;
  /** Until the next retry falls due (after its lease); the loop also wakes on every new event. */
  msUntilNextAttempt: () => Promise<number | null>;
  /** Extra wake-ups besides the event log's own (a redelivery asked for, say); returns the unsubscribe function. */
  onNudge?: (wake: () => void) => () => void;
  /**
   * A wake-up by the event log waits SETTLE_MS before the loop runs, so that a burst of events costs
   * one round of claims instead of one per event. Nudges and timers are not delayed. Only for work
   * no request waits for: the reactions, which a request may wait for, wake at once.
   */
  settles?: boolean;
}

/** Starts one consumer's loop in this process; returns the function that stops it. */
export function startLogConsumer(consumer: LogConsumer): () => void {
  let stopped = false;
  let draining = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const lane = async () => {
    while (!stopped && (await consumer.workOnce()));
  };
  const drain = async () => {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    clearTimeout(timer);
    try {
      let wait: number | null = null;
      // A wake that comes while the retry time is read must not wait for the timer: loop again.
      do {
        again = false;
        // One claim first: when it finds nothing due, the other lanes' claims would not either (a
        // wake-up for events no row waits for then costs one query, not one per lane).
        if (!stopped && (await consumer.workOnce())) await Promise.all(Array.from({ length: consumer.lanes() }, lane));
        if (!again) wait = await consumer.msUntilNextAttempt();
      } while (again && !stopped);
      if (!stopped) timer = setTimeout(() => void drain(), clampWait(wait));
    } catch (error) {
      console.error(`[taskboard] ${consumer.name}: ${(error as Error).message}`);
      if (!stopped) timer = setTimeout(() => void drain(), IDLE_POLL_MS);
    } finally {
      draining = false;
    }
    timer?.unref();
  };

  // A nudge comes from inside a request: the work it starts must not run in that request's async
  // context, where its statements counted as the request's (x-sql-statements) and the events it
  // records took the request's actor (lib/events/wake.ts binds its own listeners the same way).
  const wake = AsyncResource.bind(() => void drain());
  let settling: NodeJS.Timeout | undefined;
  const onEvents = AsyncResource.bind(() => {
    if (!consumer.settles) return void drain();
    settling ??= setTimeout(() => {
      settling = undefined;
      void drain();
    }, SETTLE_MS).unref();
  });
  const unsubscribe = onAnyWorkspaceEvents(onEvents);
  const unnudge = consumer.onNudge?.(wake);
  void drain();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(settling);
    unsubscribe();
    unnudge?.();
  };
}

function clampWait(ms: number | null): number {
  return Math.max(MIN_TIMER_MS, Math.min(IDLE_POLL_MS, Math.ceil(ms ?? IDLE_POLL_MS)));
}

/** The delay after the n-th failed attempt: base, 2×base, 4×base… at most `maxMs`. */
export function backoffMs(failedAttempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.min(failedAttempts - 1, 30), maxMs);
}

export interface NextEvents {
  /** The workspace's newest event id. */
  head: string;
  /** Events a worker reads were deleted by retention up to here (stream-only ones may be gone past it). */
  prunedThrough: string;
  /** The next events after the cursor of the wanted types, oldest first, as their public JSON (WorkspaceEvent). */
  events: { id: string; type: string; json: string }[];
}

/** Only events whose `data.<field>` (as text) is one of `values`: skipped in SQL, never handed over. */
export interface DataMatch {
  field: string;
  values: readonly string[];
  /** And the data contains this JSON (jsonb `@>`): e.g. an agent among a task's assignees. */
  contains?: object;
}

/**
 * The next `limit` events after `cursor` whose type is one of `types` (null: any) and whose data
 * matches `match`, with the head and the retention mark read in the same snapshot, so "nothing after
 * the cursor" and "the cursor is behind retention" are exact.
 */
export async function nextEventsAfter(
  tx: Tx | Db,
  workspaceId: string,
  cursor: string,
  types: readonly string[] | null,
  match: DataMatch | undefined,
  limit: number,
): Promise<NextEvents> {
  const rows = await tx.$queryRawUnsafe<
    { head: string; pruned_through: string; id: string | null; type: string | null; json: string | null }[]
  >(
    NEXT_EVENTS,
    workspaceId,
    cursor,
    types === null,
    types ?? [],
    match?.field ?? null,
    match?.values ?? [],
    match?.contains ? JSON.stringify(match.contains) : null,
    limit,
  );
  return {
    head: rows[0].head,
    prunedThrough: rows[0].pruned_through,
    events: rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id, type: row.type!, json: row.json! }])),
  };
}

// $1 workspace, $2 cursor, $3 all types, $4 the types, $5 a data field to match (null: none), $6 its values,
// $7 JSON the data must contain (null: none), $8 how many.
// pruned_through here is the newest event retention deleted that a worker reads: a cursor below the
// log's own pruned_through but not below this one missed only stream-only events, which is no gap.
const NEXT_EVENTS = `SELECT COALESCE(h.last_id, 0)::text AS head, COALESCE(h.pruned_background_through, 0)::text AS pruned_through, e.id, e.type, e.json
FROM (SELECT $1::text AS workspace_id) w
LEFT JOIN workspace_event_heads h ON h.workspace_id = w.workspace_id
LEFT JOIN LATERAL (
  SELECT x.id AS n, x.id::text AS id, x.type, ${eventJsonSql("x")} AS json
  FROM workspace_events x
  WHERE x.workspace_id = w.workspace_id AND x.id > $2::bigint AND ($3::boolean OR x.type = ANY($4::text[]))
    AND ($5::text IS NULL OR x.data->>$5::text = ANY($6::text[]))
    AND ($7::text IS NULL OR x.data::jsonb @> $7::jsonb)
  ORDER BY x.id
  LIMIT $8::int
) e ON true
ORDER BY e.n`;
