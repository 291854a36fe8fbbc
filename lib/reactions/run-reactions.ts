import crypto from "node:crypto";
import { HttpError } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import { backoffMs, nextEventsAfter, startLogConsumer } from "@/lib/events/consume-log";
import type { WorkspaceEvent } from "@/lib/events/event-types";
import { reactionMaxAttempts, reactionRetryBaseMs, reactionRetryMaxDelayMs } from "@/lib/reactions/config";
import { onReactionsNudge, reactionProgressed } from "@/lib/reactions/progress";
import type { Reaction } from "@/lib/reactions/reaction";
import { reactionNamed, READ_COLUMNS, REACTION_READS, READS_EVENT_SQL } from "@/lib/reactions/reactions";

// The reactions' worker: the event-log consumer of lib/events/consume-log.ts (the webhook
// deliverer's claim, lease and retry) over the rows of reaction_cursors, one per reaction and
// workspace. A lease covers a batch of events; a failure keeps the cursor on the event, records
// last_error and waits with back-off; after REACTION_MAX_ATTEMPTS the reaction gives up on that
// event (last_error says so) and goes on, so one bad event never stops a workspace's automation.
// A refusal by a domain function (an HttpError below 500) is not retried: it is recorded as
// last_error and the reaction goes on at once.

const LANES = 2;
// Short, and renewed while the work goes on: a server that dies holding one delays its rows' next
// events by at most this long.
const LEASE_SECONDS = 30;
const RENEW_MS = 10_000;
const BATCH = 50;

interface Claimed {
  reaction: string;
  workspace_id: string;
  cursor: string;
  attempts: number;
}

/**
 * Starts this process's reactions worker; returns the function that stops it. On the embedded
 * database this process is the only one: a lease left in it was its predecessor's, given back now.
 */
export async function startReactions(db: Db, kind: "pglite" | "postgresql"): Promise<() => void> {
  if (kind === "pglite")
    await db.$executeRawUnsafe(`UPDATE reaction_cursors SET lease_until = NULL, lease_token = NULL WHERE lease_token IS NOT NULL`);
  return startLogConsumer({
    name: "reactions",
    lanes: () => LANES,
    workOnce: () => workOnOneCursor(db),
    msUntilNextAttempt: () => msUntilNextAttempt(db),
    onNudge: onReactionsNudge,
  });
}

/** Claims one reaction's cursor in one workspace that is behind its log, and works through a batch. */
export async function workOnOneCursor(db: Db): Promise<boolean> {
  const token = crypto.randomUUID();
  const [claimed] = await db.$queryRawUnsafe<Claimed[]>(CLAIM, REACTION_READS, token, LEASE_SECONDS);
  if (!claimed) return false;
  const reaction = reactionNamed(claimed.reaction)!;
  const renew = setInterval(
    () =>
      void db
        .$executeRawUnsafe(
          `UPDATE reaction_cursors SET lease_until = now() + make_interval(secs => $4::float8) WHERE reaction = $1 AND workspace_id = $2 AND lease_token = $3`,
          claimed.reaction,
          claimed.workspace_id,
          token,
          LEASE_SECONDS,
        )
        .catch(() => {}),
    RENEW_MS,
  );
  try {
    await workThrough(db, reaction, claimed.workspace_id, claimed.cursor, claimed.attempts, token);
  } finally {
    clearInterval(renew);
    await db.$executeRawUnsafe(
      `UPDATE reaction_cursors SET lease_until = clock_timestamp(), lease_token = NULL WHERE reaction = $1 AND workspace_id = $2 AND lease_token = $3`,
      claimed.reaction,
      claimed.workspace_id,
      token,
    );
  }
  return true;
}

/**
 * Handles the next events after `cursor` (read at once, up to BATCH), moving the cursor past each
 * as it is done, so a crash repeats at most the one in hand. Stops at a failure that waits for its retry.
 */
async function workThrough(db: Db, reaction: Reaction, workspaceId: string, cursor: string, attempts: number, token: string) {
  const next = await nextEventsAfter(db, workspaceId, cursor, reaction.types, reaction.match, BATCH);
  if (BigInt(cursor) < BigInt(next.prunedThrough)) {
    const gap = `Not run for the events after #${cursor} up to #${next.prunedThrough}: the event log's retention deleted them first.`;
    // The claim ends here; the worker claims the cursor again at once if it is still behind.
    await record(db, reaction.name, workspaceId, token, { cursor: next.prunedThrough, error: gap, eventId: null });
    return;
  }
  for (const row of next.events) {
    if (!(await handleOne(db, reaction, workspaceId, JSON.parse(row.json) as WorkspaceEvent, attempts, token))) return;
    attempts = 0;
  }
  // Fewer than a batch: none it reads is left up to the head read with them (stream-only events, say).
  const last = next.events.at(-1)?.id ?? cursor;
  if (next.events.length < BATCH && BigInt(next.head) > BigInt(last))
    await record(db, reaction.name, workspaceId, token, { cursor: next.head });
}

/** Handles one event and records the outcome; false when it failed and waits for a retry. */
async function handleOne(db: Db, reaction: Reaction, workspaceId: string, event: WorkspaceEvent, attempts: number, token: string) {
  try {
    await reaction.handle(db, event);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof HttpError && error.status < 500) {
      // A refusal (the task's branch is not its own, say) is an answer: asking again gets the same one.
      const refused = `Refused on event #${event.id} (${event.type}): ${message}`;
      await record(db, reaction.name, workspaceId, token, { cursor: event.id, error: refused, eventId: event.id });
      return true;
    }
    const failed = attempts + 1;
    console.error(`[taskboard] reaction ${reaction.name} on event #${event.id}, attempt ${failed}: ${message}`);
    if (failed < reactionMaxAttempts()) {
      const retryAt = new Date(Date.now() + backoffMs(failed, reactionRetryBaseMs(), reactionRetryMaxDelayMs()));
      await record(db, reaction.name, workspaceId, token, { attempts: failed, retryAt, error: message, eventId: event.id });
      return false;
    }
    const gaveUp = `Gave up on event #${event.id} (${event.type}) after ${failed} attempts: ${message}`;
    await record(db, reaction.name, workspaceId, token, { cursor: event.id, error: gaveUp, eventId: event.id });
    return true;
  }
  await record(db, reaction.name, workspaceId, token, { cursor: event.id });
  return true;
}

interface Change {
  cursor?: string;
  attempts?: number;
  retryAt?: Date;
  error?: string;
  eventId?: string | null;
}

/** One write under the lease: the cursor moved (attempts reset) or a failure counted, and the last error if any. */
async function record(db: Db, reaction: string, workspaceId: string, token: string, change: Change) {
  const updated = await db.$executeRawUnsafe(
    `UPDATE reaction_cursors SET
       cursor = COALESCE($4::bigint, cursor),
       attempts = $5, next_attempt_at = $6,
       last_error = COALESCE($7, last_error),
       last_error_at = CASE WHEN $7::text IS NULL THEN last_error_at ELSE now() END,
       last_error_event_id = CASE WHEN $7::text IS NULL THEN last_error_event_id ELSE $8::bigint END,
       processed_at = CASE WHEN $4::bigint IS NULL THEN processed_at ELSE now() END
     WHERE reaction = $1 AND workspace_id = $2 AND lease_token = $3`,
    reaction,
    workspaceId,
    token,
    change.cursor ?? null,
    change.attempts ?? 0,
    change.retryAt ?? null,
    change.error?.slice(0, 2000) ?? null,
    change.eventId ?? null,
  );
  // What a waiting request needs (lib/reactions/wait-for-reactions.ts), once written: a lease lost
  // meanwhile wrote nothing.
  if (updated === 1 && (change.cursor || change.retryAt))
    reactionProgressed(workspaceId, { reaction, cursor: change.cursor ? BigInt(change.cursor) : null });
}

/** Until the earliest retry falls due, null when none is waiting. */
async function msUntilNextAttempt(db: Db): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<{ wait_ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) - now())) * 1000)::float8 AS wait_ms
     FROM reaction_cursors WHERE next_attempt_at IS NOT NULL`,
  );
  return row?.wait_ms ?? null;
}

// One statement per wake-up of the worker, whatever was written. A (reaction, workspace) whose
// cursor is behind the workspace's newest event a worker reads (not its head: stream-only events
// after it would have it claimed only to skip them), not leased:
// - when none of those events is one the reaction reads (types and match, as REACTION_READS says),
//   the cursor moves to that newest event here (`passed`), without a claim: most writes (a create, a
//   rename, an answer) concern no reaction, and claiming every reaction's cursor to pass over them
//   was four claims, four reads and eight writes per write (issue #36);
// - otherwise, or when retention deleted events after the cursor (stepOnce records the gap), it is a
//   candidate, unless it waits for a retry; the least recently worked is claimed.
// A missing row is a workspace newer than the reaction (cursor 0) and is created here. The
// conditional upserts re-check the row as it is when they write it, so two instances cannot move a
// cursor back or claim one row twice. `behind` is read in one snapshot in which every event up to a
// head's last_background_id has committed (ids are taken in commit order, lib/events/record-events.ts),
// so "none it reads" is exact.
const CLAIM = `WITH r AS (SELECT * FROM json_to_recordset($1::json) AS r(${READ_COLUMNS})),
behind AS (
  SELECT r.name AS reaction, h.workspace_id, h.last_background_id AS upto, c.lease_until, c.next_attempt_at,
    COALESCE(c.attempts, 0) AS attempts,
    COALESCE(c.cursor, 0) < h.pruned_background_through OR EXISTS (
      SELECT 1 FROM workspace_events x
      WHERE x.workspace_id = h.workspace_id AND x.id > COALESCE(c.cursor, 0) AND x.id <= h.last_background_id AND ${READS_EVENT_SQL}
    ) AS due
  FROM workspace_event_heads h
  CROSS JOIN r
  LEFT JOIN reaction_cursors c ON c.reaction = r.name AND c.workspace_id = h.workspace_id
  WHERE COALESCE(c.cursor, 0) < h.last_background_id AND (c.lease_until IS NULL OR c.lease_until <= now())
),
passed AS (
  INSERT INTO reaction_cursors (reaction, workspace_id, cursor, processed_at)
  SELECT reaction, workspace_id, upto, now() FROM behind WHERE NOT due AND attempts = 0
  ON CONFLICT (reaction, workspace_id) DO UPDATE SET cursor = EXCLUDED.cursor, processed_at = EXCLUDED.processed_at
  WHERE reaction_cursors.cursor < EXCLUDED.cursor AND reaction_cursors.attempts = 0
    AND (reaction_cursors.lease_until IS NULL OR reaction_cursors.lease_until <= now())
),
candidate AS (
  SELECT reaction, workspace_id FROM behind
  WHERE due AND (next_attempt_at IS NULL OR next_attempt_at <= now())
  ORDER BY lease_until NULLS FIRST, workspace_id, reaction
  LIMIT 1
)
INSERT INTO reaction_cursors (reaction, workspace_id, lease_until, lease_token)
SELECT reaction, workspace_id, now() + make_interval(secs => $3::float8), $2 FROM candidate
ON CONFLICT (reaction, workspace_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, lease_token = EXCLUDED.lease_token
WHERE reaction_cursors.lease_until IS NULL OR reaction_cursors.lease_until <= now()
RETURNING reaction, workspace_id, cursor::text AS cursor, attempts`;
