import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { SlackOutcome } from "@/lib/slack/schemas";
import { answerFromSlack } from "@/lib/slack/answer-from-slack";
import { replyAnswer } from "@/lib/slack/reply-answer";
import { slackClient } from "@/lib/slack/slack-client";

// POST /api/integrations/slack/events, after its signature checked out. Two kinds matter:
// `url_verification` (Slack checking the address when the app is set up: echo its challenge) and a
// person's message in the thread of a question's post, which answers that question. Each event is
// taken once by its event_id (slack_event_receipts), so a retry Slack sends because the first answer
// was slow changes nothing. Refusals go back into the thread, naming the person.

const verification = z.object({ type: z.literal("url_verification"), challenge: z.string().max(200) });

const callback = z.object({
  type: z.literal("event_callback"),
  event_id: z.string().min(1).max(100),
  event: z.object({
    type: z.string(),
    channel: z.string().optional(),
    user: z.string().optional(),
    text: z.string().optional(),
    thread_ts: z.string().optional(),
    bot_id: z.string().optional(),
    subtype: z.string().optional(),
  }),
});

export async function receiveSlackEvent(db: Db, rawBody: string): Promise<SlackOutcome> {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return { status: 400, body: { detail: "The body is not JSON" } };
  }
  const check = verification.safeParse(payload);
  if (check.success) return { status: 200, body: { challenge: check.data.challenge } };
  const parsed = callback.safeParse(payload);
  if (!parsed.success) return { status: 200, body: { ok: true, ignored: true } };
  const { event, event_id: eventId } = parsed.data;
  // Only people's own words in a thread: not the bot's posts, edits or joins (they have a subtype).
  if (event.type !== "message" || !event.thread_ts || !event.user || !event.channel || event.bot_id || event.subtype) {
    return { status: 200, body: { ok: true, ignored: true } };
  }
  if (!(await firstDelivery(db, eventId))) return { status: 200, body: { ok: true, duplicate: true } };
  const message = await db.slackQuestionMessage.findUnique({
    where: { channel_ts: { channel: event.channel, ts: event.thread_ts } },
    select: { questionId: true, question: { select: { options: true, permissionOptions: true } } },
  });
  if (!message) return { status: 200, body: { ok: true, ignored: true } };
  const options = Array.isArray(message.question.options) ? message.question.options.map(String) : [];
  const answer = replyAnswer(event.text ?? "", options, message.question.permissionOptions !== null);
  const refusal =
    typeof answer === "string"
      ? await answerFromSlack(db, { slackUserId: event.user, questionId: message.questionId, answer })
      : answer.refusal;
  const { channel, thread_ts: threadTs, user } = event;
  return {
    status: 200,
    body: { ok: refusal === null, ...(refusal ? { detail: refusal } : {}) },
    reply: refusal ? () => sayInThread(channel, threadTs, `<@${user}> ${refusal}`) : undefined,
  };
}

async function firstDelivery(db: Db, eventId: string): Promise<boolean> {
  // Receipts are kept a day; a few old ones go with each new one, so the table stays small.
  await db.$executeRaw`DELETE FROM slack_event_receipts WHERE event_id IN (
    SELECT event_id FROM slack_event_receipts WHERE received_at < now() - interval '1 day' LIMIT 20)`;
  const taken = await db.$executeRaw`INSERT INTO slack_event_receipts (event_id) VALUES (${eventId}) ON CONFLICT (event_id) DO NOTHING`;
  return taken === 1;
}

async function sayInThread(channel: string, threadTs: string, text: string) {
  await (await slackClient())?.chat.postMessage({ channel, thread_ts: threadTs, text });
}
