import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { OutgoingNotification } from "@/lib/notifications/channels";
import { issueAnswerKey } from "@/lib/questions/answer-keys";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import type { PushPayload } from "@/lib/push/schemas";

// What one notification says on a device. Browsers show two actions at most next to the default
// click, so an open question's first two options become actions, each with its own answer key
// (issued per send: a key leaked from one device's notification answers nothing else), and
// "Answer…" opens the board for the rest.

const MAX_OPTION_ACTIONS = 2;

export async function pushPayload(db: Db, notification: OutgoingNotification): Promise<PushPayload> {
  const task = notification.taskId ? `?task=${encodeURIComponent(notification.taskId)}` : "";
  const url = `/w/${encodeURIComponent(notification.workspaceId)}${task}`;
  const payload: PushPayload = {
    title: notification.title,
    body: notification.body,
    url,
    tag: notification.questionId ? `question:${notification.questionId}` : pushTopic(notification.idempotencyKey),
    actions: [],
  };
  if (!notification.questionId) return payload;
  const question = await db.question.findUnique({ where: { id: notification.questionId }, select: { options: true, status: true } });
  const options = Array.isArray(question?.options) ? question.options.map(String) : [];
  if (question?.status !== QUESTION_STATUS.open || options.length === 0) return payload;
  for (const [index, option] of options.slice(0, MAX_OPTION_ACTIONS).entries()) {
    const key = await issueAnswerKey(db, { questionId: notification.questionId, userId: notification.userId, channel: "push" });
    payload.actions.push({ action: `answer_${index}`, title: option.slice(0, 60), key, answer: option });
  }
  payload.actions.push({ action: "open", title: "Answer…" });
  return payload;
}

/** The push service keeps one message per Topic (RFC 8030 §5.4): a retried delivery replaces, never repeats. */
export function pushTopic(idempotencyKey: string): string {
  return crypto.createHash("sha256").update(idempotencyKey).digest("base64url").slice(0, 32);
}
