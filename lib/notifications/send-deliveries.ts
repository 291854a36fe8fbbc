import type { Db } from "@/lib/db/client";
import { backoffMs } from "@/lib/events/consume-log";
import { channelSender } from "@/lib/notifications/channels";

// The deliveries on the channels that need a sender (push, email, Slack). A due pending delivery is
// leased (so two instances never send it at once, and a dead instance's lease runs out), handed to
// its channel's sender with its idempotency key, and recorded: sent, or retried with back-off
// (RETRY_BASE_MS doubling up to RETRY_MAX_MS), or failed after MAX_ATTEMPTS.

const LEASE_SECONDS = 60;
const RETRY_BASE_MS = 10_000;
const RETRY_MAX_MS = 3_600_000;
export const MAX_ATTEMPTS = 8;

interface Claimed {
  id: string;
  channel: string;
  idempotency_key: string;
  attempts: number;
  user_id: string;
  workspace_id: string;
  kind: string;
  title: string;
  body: string;
  task_id: string | null;
  question_id: string | null;
}

/** Sends one due delivery; false when none is due. */
export async function sendOneDelivery(db: Db): Promise<boolean> {
  const [due] = await db.$queryRawUnsafe<Claimed[]>(CLAIM, LEASE_SECONDS);
  if (!due) return false;
  const sender = channelSender(due.channel);
  if (!sender?.configured()) {
    await finish(db, due.id, { status: "skipped", lastError: `The ${due.channel} channel is not configured on this server` });
    return true;
  }
  const attempts = due.attempts + 1;
  try {
    const outcome = await sender.send({
      idempotencyKey: due.idempotency_key,
      userId: due.user_id,
      workspaceId: due.workspace_id,
      kind: due.kind,
      title: due.title,
      body: due.body,
      taskId: due.task_id,
      questionId: due.question_id,
    });
    if (outcome?.skipped) await finish(db, due.id, { status: "skipped", attempts, lastError: outcome.skipped });
    else await finish(db, due.id, { status: "sent", attempts, sentAt: new Date(), lastError: null });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const giveUp = attempts >= MAX_ATTEMPTS;
    await finish(db, due.id, {
      status: giveUp ? "failed" : "pending",
      attempts,
      lastError: message,
      nextAttemptAt: giveUp ? null : new Date(Date.now() + backoffMs(attempts, RETRY_BASE_MS, RETRY_MAX_MS)),
    });
  }
  return true;
}

async function finish(
  db: Db,
  id: string,
  data: { status: string; attempts?: number; lastError?: string | null; sentAt?: Date; nextAttemptAt?: Date | null },
) {
  await db.notificationDelivery.update({ where: { id }, data: { ...data, leaseUntil: null }, select: { id: true } });
}

/** Until the next pending delivery falls due (after its lease); null when none waits. */
export async function msUntilNextDelivery(db: Db): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<{ wait_ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) - now())) * 1000)::float8 AS wait_ms
     FROM notification_deliveries WHERE status = 'pending'`,
  );
  return row?.wait_ms ?? null;
}

const CLAIM = `UPDATE notification_deliveries d SET lease_until = now() + make_interval(secs => $1::float8)
FROM (
  SELECT x.id FROM notification_deliveries x
  WHERE x.status = 'pending' AND x.next_attempt_at <= now() AND (x.lease_until IS NULL OR x.lease_until <= now())
  ORDER BY x.next_attempt_at, x.id
  LIMIT 1
  FOR UPDATE OF x SKIP LOCKED
) picked, notifications n
WHERE d.id = picked.id AND n.id = d.notification_id
RETURNING d.id, d.channel, d.idempotency_key, d.attempts, n.user_id, n.workspace_id, n.kind, n.title, n.body, n.task_id, n.question_id`;
