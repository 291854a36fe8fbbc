import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { incomingEmailConfig, smtpConfig } from "@/lib/config";
import { mailFromDomain, sendMail } from "@/lib/net/send-mail";
import { boardLink } from "@/lib/notifications/board-link";
import type { ChannelSender, OutgoingNotification } from "@/lib/notifications/channels";
import { settingsOf } from "@/lib/notifications/settings";
import { issueAnswerKey } from "@/lib/questions/answer-keys";
import type { PermissionOption } from "@/lib/questions/permission-options";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { digestMail, plainMail, questionMail } from "@/lib/email/question-mail";
import { replyAddress } from "@/lib/email/reply-address";

// The `email` channel (docs/email.md): a mail to the person's address (users.email) through
// SMTP_URL. A question's Reply-To carries an answer key for that person, so a reply answers it
// (lib/email/read-reply.ts). The Message-ID comes from the delivery's idempotency key: a retry after
// a crash is the same message to any server or client that de-duplicates by it. With the digest on,
// the first due mail takes the person's other waiting mails with it (notify.ts held them back).

export function emailSender(db: Db): ChannelSender {
  return {
    configured: () => smtpConfig() !== null,
    send: (notification) => sendNotificationMail(db, notification),
  };
}

async function sendNotificationMail(db: Db, notification: OutgoingNotification) {
  const person = await db.user.findUnique({ where: { id: notification.userId }, select: { email: true } });
  if (!person?.email) throw new Error("This person has no email address (Settings → Profile)");
  const messageId = `<${crypto.createHash("sha256").update(notification.idempotencyKey).digest("hex").slice(0, 32)}@${mailFromDomain()}>`;
  const headers = { "Auto-Submitted": "auto-generated" };
  const link = boardLink(notification);
  if (notification.questionId) {
    const question = await db.question.findUnique({
      where: { id: notification.questionId },
      select: { content: true, context: true, options: true, permissionOptions: true, status: true },
    });
    // Answered or deleted before its mail went: nothing to ask any more.
    if (!question || question.status !== QUESTION_STATUS.open) return;
    const permission = question.permissionOptions as PermissionOption[] | null;
    const options = permission ? permission.map((option) => option.name) : ((question.options as string[] | null) ?? []);
    const incoming = incomingEmailConfig();
    const key = incoming
      ? await issueAnswerKey(db, { questionId: notification.questionId, userId: notification.userId, channel: "email" })
      : null;
    const mail = questionMail(
      notification,
      { content: question.content, context: question.context, options, optionsOnly: !!permission },
      link,
      !!key,
    );
    await sendMail({
      to: person.email,
      messageId,
      headers,
      ...mail,
      ...(key && incoming ? { replyTo: replyAddress(incoming.address, key) } : {}),
    });
    return;
  }
  const [prefs] = (await settingsOf(db, [notification.userId])).values();
  if (!prefs.digest) {
    await sendMail({ to: person.email, messageId, headers, ...plainMail(notification, link) });
    return;
  }
  const others = await waitingMails(db, notification);
  await sendMail({
    to: person.email,
    messageId,
    headers,
    ...digestMail([notification, ...others.map((row) => row.notification)], boardLink),
  });
  await db.notificationDelivery.updateMany({
    where: { id: { in: others.map((row) => row.id) }, status: "pending" },
    data: { status: "sent", attempts: { increment: 1 }, sentAt: new Date(), lastError: null, leaseUntil: null },
  });
}

/** The person's other mails waiting for their digest (not questions, which go at once). */
async function waitingMails(db: Db, notification: OutgoingNotification) {
  const rows = await db.notificationDelivery.findMany({
    where: {
      channel: "email",
      status: "pending",
      leaseUntil: null,
      idempotencyKey: { not: notification.idempotencyKey },
      notification: { userId: notification.userId, questionId: null },
    },
    orderBy: { nextAttemptAt: "asc" },
    take: 50,
    select: { id: true, idempotencyKey: true, notification: true },
  });
  return rows.map((row) => ({
    id: row.id,
    notification: {
      idempotencyKey: row.idempotencyKey,
      userId: row.notification.userId,
      workspaceId: row.notification.workspaceId,
      kind: row.notification.kind,
      title: row.notification.title,
      body: row.notification.body,
      taskId: row.notification.taskId,
      questionId: row.notification.questionId,
    },
  }));
}
