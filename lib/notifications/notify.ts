import crypto from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { NotificationKind, NotificationChannel } from "@/lib/notifications/kinds";
import { configuredChannels } from "@/lib/notifications/channels";
import { quietUntil } from "@/lib/notifications/quiet-hours";
import { settingsOf } from "@/lib/notifications/settings";
import { emailDigestMs } from "@/lib/config";
import { nudgeNotificationWorker } from "@/lib/notifications/nudge-worker";

export interface NewNotification {
  userId: string;
  workspaceId: string;
  kind: NotificationKind;
  /** What caused it, unique per person ("question:<id>", "run:<id>"…): the same cause never notifies twice. */
  source: string;
  taskId?: string | null;
  questionId?: string | null;
  executionId?: string | null;
  title: string;
  body?: string;
}

/**
 * Writes notifications and their deliveries, each at most once: a notification whose person already
 * has one from the same source is left out (ON CONFLICT), and so are its deliveries. Per person,
 * only the channels they have on for the kind and this server has configured get a delivery; with
 * none, nothing is written. In-app is delivered by the insert (status sent); with in-app off the
 * notification is written read, a record for the other channels. Returns how many were written.
 */
export async function createNotifications(tx: Tx, items: NewNotification[]): Promise<number> {
  if (items.length === 0) return 0;
  const settings = await settingsOf(tx, [...new Set(items.map((item) => item.userId))]);
  const configured = configuredChannels();
  const now = new Date();
  let written = 0;
  for (const item of items) {
    const prefs = settings.get(item.userId)!;
    const channels = configured.filter((channel) => prefs.kinds[item.kind][channel]);
    if (channels.length === 0) continue;
    const id = uuidv7(now);
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO notifications (id, user_id, workspace_id, kind, source, task_id, question_id, execution_id, title, body, read_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (user_id, source) DO NOTHING`,
      id,
      item.userId,
      item.workspaceId,
      item.kind,
      item.source,
      item.taskId ?? null,
      item.questionId ?? null,
      item.executionId ?? null,
      item.title.slice(0, 300),
      (item.body ?? "").slice(0, 2000),
      channels.includes("in_app") ? null : now,
      now,
    );
    if (inserted === 0) continue;
    written++;
    const sendAt = quietUntil(now, prefs);
    // With the digest on, a mail waits a while so what follows it goes in the same message
    // (lib/email/email-sender.ts gathers them); a question is never held back.
    const mailAt =
      prefs.digest && item.kind !== "question" ? new Date(Math.max(sendAt.getTime(), now.getTime() + emailDigestMs())) : sendAt;
    await tx.notificationDelivery.createMany({
      data: channels.map((channel) => delivery(id, channel, now, channel === "email" ? mailAt : sendAt)),
    });
  }
  return written;
}

/** createNotifications in a transaction of its own; once committed, the deliveries' worker is woken. */
export async function notify(db: Db, items: NewNotification[]): Promise<number> {
  if (items.length === 0) return 0;
  const written = await db.$transaction((tx) => createNotifications(tx, items));
  if (written > 0) nudgeNotificationWorker();
  return written;
}

function delivery(notificationId: string, channel: NotificationChannel, now: Date, sendAt: Date) {
  const base = { notificationId, channel, idempotencyKey: `${notificationId}:${channel}` };
  if (channel === "in_app") return { ...base, status: "sent", attempts: 1, sentAt: now };
  return { ...base, status: "pending", nextAttemptAt: sendAt };
}

/** A UUID version 7 (RFC 9562): time-ordered, so the inbox's order (created_at, id) holds within a millisecond too. */
function uuidv7(at: Date): string {
  const bytes = crypto.randomBytes(16);
  bytes.writeUIntBE(at.getTime(), 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
