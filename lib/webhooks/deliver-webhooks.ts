import crypto from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { backoffMs, nextEventsAfter, startLogConsumer } from "@/lib/events/consume-log";
import { DELIVERABLE_EVENT_TYPES } from "@/lib/events/event-types";
import { attemptTimeoutMs, deliveryConcurrency, retryBaseMs, retryMaxDelayMs, retryWindowMs } from "@/lib/webhooks/config";
import { onDeliveryNudge } from "@/lib/webhooks/nudge-worker";
import { sendDelivery, type AttemptResult } from "@/lib/webhooks/send-delivery";
import { ALL_EVENTS, DELIVERY_STATUS } from "@/lib/webhooks/statuses";
import { unseal } from "@/lib/crypto/seal";

// The delivery worker (docs/webhooks.md). Each endpoint has a cursor in the workspace event log.
// A worker claims an endpoint with FOR UPDATE SKIP LOCKED and leases it for one attempt (the row
// lock cannot be held across an HTTP request: on PGlite the one connection would be blocked). With
// the lease it turns the next matching event after the cursor into a delivery row and moves the
// cursor in one transaction, then sends it. A failed delivery stays `pending` with its next attempt
// time, and the endpoint takes no newer event until it succeeds or gives up: log order per endpoint.
// Every row is in the database, so a restart or another instance carries on where this one stopped.

const HISTORY_KEPT = 50;

export interface Claimed {
  id: string;
  workspace_id: string;
  url: string;
  secret: string;
  events: string[];
  cursor: string;
}

interface DueDelivery {
  id: string;
  event_type: string | null;
  request_body: string;
  redelivery_of: string | null;
  attempts: number;
  history: unknown[];
  created_at: Date;
}

/** Starts this process's worker; it wakes on the event log's notifications, nudges and retry times. */
export function startDeliveryWorker(db: Db): () => void {
  return startLogConsumer({
    name: "webhook delivery",
    lanes: deliveryConcurrency,
    workOnce: () => workOnOneEndpoint(db),
    msUntilNextAttempt: () => msUntilNextAttempt(db),
    settles: true,
    onNudge: (wake) => {
      onDeliveryNudge(wake);
      return () => onDeliveryNudge(() => {});
    },
  });
}

/** Claims an endpoint with due work and handles one item of it; false when none has any. */
async function workOnOneEndpoint(db: Db): Promise<boolean> {
  const token = crypto.randomUUID();
  const endpoint = await claimEndpoint(db, token);
  if (!endpoint) return false;
  try {
    await workOn(db, endpoint, token);
  } catch (error) {
    console.error(`[taskboard] webhook ${endpoint.id}: ${(error as Error).message}`);
  } finally {
    await release(db, endpoint.id, token);
  }
  return true;
}

/**
 * One step for a leased endpoint: the oldest due delivery (a retry or a redelivery), else the next
 * matching event after the cursor, else just the cursor moved to the log's head (nothing matched).
 */
export async function workOn(db: Db, endpoint: Claimed, token: string): Promise<void> {
  let due = await dueDelivery(db, endpoint.id);
  if (!due) {
    due = await takeNextEvent(db, endpoint, token);
    if (!due) return;
  }
  const result = await sendDelivery({
    url: endpoint.url,
    secret: unseal(endpoint.secret),
    deliveryId: due.id,
    eventType: due.event_type ?? "",
    body: due.request_body,
  });
  await recordAttempt(db, endpoint, due, result);
}

export async function claimEndpoint(db: Db, token: string): Promise<Claimed | null> {
  const leaseSeconds = attemptTimeoutMs() / 1000 + 30;
  const rows = await db.$queryRawUnsafe<Claimed[]>(CLAIM, token, leaseSeconds, DELIVERY_STATUS.pending);
  return rows[0] ?? null;
}

async function release(db: Db, webhookId: string, token: string) {
  // lease_until = now (not null): claims take the least recently worked endpoint first, round robin.
  await db.$executeRawUnsafe(
    `UPDATE webhooks SET lease_until = clock_timestamp(), lease_token = NULL WHERE id = $1 AND lease_token = $2`,
    webhookId,
    token,
  );
}

async function dueDelivery(db: Db, webhookId: string): Promise<DueDelivery | null> {
  const rows = await db.$queryRawUnsafe<DueDelivery[]>(
    `SELECT id, event_type, request_body, redelivery_of, attempts, history, created_at FROM webhook_deliveries
     WHERE webhook_id = $1 AND status = $2 AND next_attempt_at <= now() ORDER BY id LIMIT 1`,
    webhookId,
    DELIVERY_STATUS.pending,
  );
  return rows[0] ?? null;
}

/**
 * In one transaction, under the lease: the next event after the cursor that the endpoint wants
 * becomes a pending delivery and the cursor moves onto it. Events retention deleted before they
 * were taken become one `skipped` row naming the range (the gap), and the cursor moves past them.
 */
async function takeNextEvent(db: Db, endpoint: Claimed, token: string): Promise<DueDelivery | null> {
  return db.$transaction(async (tx) => {
    const [held] = await tx.$queryRawUnsafe<{ cursor: string }[]>(
      `SELECT cursor::text FROM webhooks WHERE id = $1 AND lease_token = $2 AND enabled FOR UPDATE`,
      endpoint.id,
      token,
    );
    if (!held) return null; // lease lost (deleted, disabled, or expired and taken)
    const all = endpoint.events.includes(ALL_EVENTS);
    const next = await nextEventsAfter(
      tx,
      endpoint.workspace_id,
      held.cursor,
      all ? DELIVERABLE_EVENT_TYPES : endpoint.events,
      undefined,
      1,
    );
    if (BigInt(held.cursor) < BigInt(next.prunedThrough)) {
      await tx.webhookDelivery.create({
        data: {
          webhookId: endpoint.id,
          status: DELIVERY_STATUS.skipped,
          requestBody: "",
          error:
            `Not delivered: the events after #${held.cursor} up to #${next.prunedThrough} were deleted by the event log's retention ` +
            `before this endpoint received them (some may not have been of its types).`,
        },
      });
      await moveCursor(tx, endpoint.id, next.prunedThrough);
      return null; // the lane claims it again at once: its cursor is still behind the head
    }
    const [event] = next.events;
    if (event === undefined) {
      if (BigInt(next.head) > BigInt(held.cursor)) await moveCursor(tx, endpoint.id, next.head);
      return null;
    }
    const created = await tx.webhookDelivery.create({
      data: {
        webhookId: endpoint.id,
        eventId: BigInt(event.id),
        eventType: event.type,
        status: DELIVERY_STATUS.pending,
        requestBody: event.json,
        nextAttemptAt: new Date(),
      },
    });
    await moveCursor(tx, endpoint.id, event.id);
    return {
      id: created.id,
      event_type: created.eventType,
      request_body: created.requestBody,
      redelivery_of: null,
      attempts: 0,
      history: [],
      created_at: created.createdAt,
    };
  });
}

async function moveCursor(tx: Tx, webhookId: string, to: string) {
  await tx.$executeRawUnsafe(`UPDATE webhooks SET cursor = $2::bigint WHERE id = $1`, webhookId, to);
}

/**
 * The attempt's outcome on the delivery: delivered; a redelivery's one attempt failed; retried
 * later with back-off; or, once the retry window has passed, failed for good and the endpoint
 * disabled with the reason.
 */
async function recordAttempt(db: Db, endpoint: Claimed, due: DueDelivery, result: AttemptResult) {
  const now = new Date();
  const history = [
    ...historyOf(due.history),
    { at: now.toISOString(), response_code: result.responseCode, duration_ms: result.durationMs, error: result.error },
  ].slice(-HISTORY_KEPT);
  const attempts = due.attempts + 1;
  const windowEnd = new Date(due.created_at).getTime() + retryWindowMs();
  const giveUp = !result.ok && (due.redelivery_of !== null || now.getTime() >= windowEnd);
  const status = result.ok ? DELIVERY_STATUS.succeeded : giveUp ? DELIVERY_STATUS.failed : DELIVERY_STATUS.pending;
  // The last retry falls at the window's end, so the endpoint is given the whole window.
  const nextAttempt =
    status === DELIVERY_STATUS.pending ? new Date(Math.min(now.getTime() + deliveryBackoffMs(attempts), windowEnd)) : null;
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.updateMany({
      where: { id: due.id },
      data: {
        status,
        attempts,
        history: history as Prisma.InputJsonValue,
        responseCode: result.responseCode,
        durationMs: result.durationMs,
        error: result.error?.slice(0, 2000) ?? null,
        lastAttemptAt: now,
        nextAttemptAt: nextAttempt,
      },
    });
    if (giveUp && due.redelivery_of === null) {
      await tx.webhook.updateMany({
        where: { id: endpoint.id },
        data: {
          enabled: false,
          disabledReason:
            `Disabled ${now.toISOString()}: every attempt to deliver event #${eventIdOf(due)} failed for ${duration(retryWindowMs())} ` +
            `(${attempts} attempts; last: ${result.error ?? "no answer"}). Enable it to resume after that event; Redeliver sends it again.`,
        },
      });
    }
  });
}

/** The delay after the n-th failed attempt: base, 2×base, 4×base… at most the maximum delay. */
export function deliveryBackoffMs(failedAttempts: number): number {
  return backoffMs(failedAttempts, retryBaseMs(), retryMaxDelayMs());
}

/** Until the earliest pending attempt of an enabled endpoint (after its lease), at most the idle poll. */
async function msUntilNextAttempt(db: Db): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<{ wait_ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(GREATEST(d.next_attempt_at, COALESCE(w.lease_until, d.next_attempt_at))) - now())) * 1000)::float8 AS wait_ms
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.status = $1 AND w.enabled`,
    DELIVERY_STATUS.pending,
  );
  return row?.wait_ms ?? null;
}

function duration(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}

/** The stored attempts (jsonb arrives parsed from one driver and as text from another). */
function historyOf(value: unknown): unknown[] {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed : [];
}

function eventIdOf(due: DueDelivery): string {
  try {
    return String((JSON.parse(due.request_body) as { id?: unknown }).id ?? "?");
  } catch {
    return "?";
  }
}

// An enabled endpoint, not leased (or its lease expired), with either a due pending delivery or,
// when no delivery of the log is pending, events after its cursor that are not stream-only
// (workspace_event_heads.last_background_id). The least recently worked
// first. SKIP LOCKED: two workers never wait on, or both take, one endpoint.
const CLAIM = `UPDATE webhooks w SET lease_until = now() + make_interval(secs => $2::float8), lease_token = $1
FROM (
  SELECT c.id FROM webhooks c
  LEFT JOIN workspace_event_heads h ON h.workspace_id = c.workspace_id
  WHERE c.enabled AND (c.lease_until IS NULL OR c.lease_until <= now())
    AND (EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = c.id AND d.status = $3 AND d.next_attempt_at <= now())
      OR (c.cursor < COALESCE(h.last_background_id, 0)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = c.id AND d.status = $3 AND d.redelivery_of IS NULL)))
  ORDER BY c.lease_until NULLS FIRST, c.id
  LIMIT 1
  FOR UPDATE OF c SKIP LOCKED
) picked
WHERE w.id = picked.id
RETURNING w.id, w.workspace_id, w.url, w.secret, w.events, w.cursor::text AS cursor`;
