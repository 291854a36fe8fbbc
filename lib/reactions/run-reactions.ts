import crypto from "node:crypto";
import { HttpError } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import { backoffMs, nextEventAfter, startLogConsumer } from "@/lib/events/consume-log";
import type { WorkspaceEvent } from "@/lib/events/event-types";
import { reactionMaxAttempts, reactionRetryBaseMs, reactionRetryMaxDelayMs } from "@/lib/reactions/config";
import { onReactionsNudge, reactionProgressed } from "@/lib/reactions/progress";
import type { Reaction } from "@/lib/reactions/reaction";
import { reactionNamed, REACTIONS } from "@/lib/reactions/reactions";

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
  const [claimed] = await db.$queryRawUnsafe<Claimed[]>(
    CLAIM,
    REACTIONS.map((reaction) => reaction.name),
    token,
    LEASE_SECONDS,
  );
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
    let cursor = claimed.cursor;
    let attempts = claimed.attempts;
    for (let done = 0; done < BATCH; done++) {
      const step = await stepOnce(db, reaction, claimed.workspace_id, cursor, attempts, token);
      if (step === null) break;
      cursor = step;
      attempts = 0;
    }
  } finally {
    clearInterval(renew);
    await db.$executeRawUnsafe(
      `UPDATE reaction_cursors SET lease_until = clock_timestamp(), lease_token = NULL WHERE reaction = $1 AND workspace_id = $2 AND lease_token = $3`,
      claimed.reaction,
      claimed.workspace_id,
      token,
    );
    reactionProgressed(claimed.workspace_id);
  }
  return true;
}

/** Handles the next event after `cursor`; the new cursor, or null when the batch should stop. */
async function stepOnce(db: Db, reaction: Reaction, workspaceId: string, cursor: string, attempts: number, token: string) {
  const next = await nextEventAfter(db, workspaceId, cursor, reaction.types, reaction.match);
  if (BigInt(cursor) < BigInt(next.prunedThrough)) {
    const gap = `Not run for the events after #${cursor} up to #${next.prunedThrough}: the event log's retention deleted them first.`;
    await record(db, reaction.name, workspaceId, token, { cursor: next.prunedThrough, error: gap, eventId: null });
    return next.prunedThrough;
  }
  if (next.event === null) {
    if (BigInt(next.head) > BigInt(cursor)) await record(db, reaction.name, workspaceId, token, { cursor: next.head });
    return null;
  }
  const event = JSON.parse(next.event.json) as WorkspaceEvent;
  try {
    await reaction.handle(db, event);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof HttpError && error.status < 500) {
      // A refusal (the task's branch is not its own, say) is an answer: asking again gets the same one.
      const refused = `Refused on event #${event.id} (${event.type}): ${message}`;
      await record(db, reaction.name, workspaceId, token, { cursor: event.id, error: refused, eventId: event.id });
      return event.id;
    }
    const failed = attempts + 1;
    console.error(`[taskboard] reaction ${reaction.name} on event #${event.id}, attempt ${failed}: ${message}`);
    if (failed < reactionMaxAttempts()) {
      const retryAt = new Date(Date.now() + backoffMs(failed, reactionRetryBaseMs(), reactionRetryMaxDelayMs()));
      await record(db, reaction.name, workspaceId, token, { attempts: failed, retryAt, error: message, eventId: event.id });
      return null;
    }
    const gaveUp = `Gave up on event #${event.id} (${event.type}) after ${failed} attempts: ${message}`;
    await record(db, reaction.name, workspaceId, token, { cursor: event.id, error: gaveUp, eventId: event.id });
    return event.id;
  }
  await record(db, reaction.name, workspaceId, token, { cursor: event.id });
  return event.id;
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
  await db.$executeRawUnsafe(
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
  if (change.cursor) reactionProgressed(workspaceId);
}

/** Until the earliest retry falls due, null when none is waiting. */
async function msUntilNextAttempt(db: Db): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<{ wait_ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) - now())) * 1000)::float8 AS wait_ms
     FROM reaction_cursors WHERE next_attempt_at IS NOT NULL`,
  );
  return row?.wait_ms ?? null;
}

// A (reaction, workspace) whose cursor is behind the workspace's newest event a worker reads (not
// its head: stream-only events after it would have it claimed only to skip them), not leased, and not waiting
// for a retry; a missing row is a workspace newer than the reaction (cursor 0) and is created here.
// The least recently worked first. Two instances that pick the same row: the conditional upsert
// lets one of them have it.
const CLAIM = `WITH candidate AS (
  SELECT r.name AS reaction, h.workspace_id
  FROM workspace_event_heads h
  CROSS JOIN unnest($1::text[]) AS r(name)
  LEFT JOIN reaction_cursors c ON c.reaction = r.name AND c.workspace_id = h.workspace_id
  WHERE COALESCE(c.cursor, 0) < h.last_background_id
    AND (c.lease_until IS NULL OR c.lease_until <= now())
    AND (c.next_attempt_at IS NULL OR c.next_attempt_at <= now())
  ORDER BY c.lease_until NULLS FIRST, h.workspace_id, r.name
  LIMIT 1
)
INSERT INTO reaction_cursors (reaction, workspace_id, lease_until, lease_token)
SELECT reaction, workspace_id, now() + make_interval(secs => $3::float8), $2 FROM candidate
ON CONFLICT (reaction, workspace_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, lease_token = EXCLUDED.lease_token
WHERE reaction_cursors.lease_until IS NULL OR reaction_cursors.lease_until <= now()
RETURNING reaction, workspace_id, cursor::text AS cursor, attempts`;
