import type { Db } from "@/lib/db/client";
import { publicUrl } from "@/lib/config";
import type { QuestionResponse } from "@/lib/questions/schemas";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { answeredQuestionMessage, openQuestionMessage } from "@/lib/slack/question-message";
import { linkSlackAccounts } from "@/lib/slack/link-accounts";
import { slackClient } from "@/lib/slack/slack-client";

// The outgoing half of Slack (docs/slack.md): a new question is posted to its workspace's channel,
// an answered one's message is rewritten. Both are called by a reaction, which may call them twice for
// one event: the stored message (slack_question_messages) says whether the post already happened.

export async function postQuestionToSlack(db: Db, question: QuestionResponse): Promise<void> {
  const client = await slackClient();
  if (!client) return;
  const workspace = await db.workspace.findUnique({ where: { id: question.workspace_id }, select: { slackChannel: true } });
  if (!workspace?.slackChannel) return;
  // Answered (or deleted) before the reaction got here: nothing to ask any more.
  const now = await db.question.findUnique({ where: { id: question.id }, select: { status: true } });
  if (now?.status !== QUESTION_STATUS.open) return;
  if (await db.slackQuestionMessage.findUnique({ where: { questionId: question.id }, select: { ts: true } })) return;
  await linkSlackAccounts(db, client, question.workspace_id);
  const posted = await client.chat.postMessage({
    channel: workspace.slackChannel,
    ...openQuestionMessage(question, boardLink(question)),
    unfurl_links: false,
  });
  if (!posted.ts || !posted.channel) throw new Error("Slack's chat.postMessage answered without a channel and ts");
  await db.slackQuestionMessage.createMany({
    data: [{ questionId: question.id, channel: posted.channel, ts: posted.ts }],
    skipDuplicates: true,
  });
}

export async function showAnswerInSlack(db: Db, question: QuestionResponse, via: string): Promise<void> {
  const client = await slackClient();
  if (!client) return;
  const message = await db.slackQuestionMessage.findUnique({ where: { questionId: question.id } });
  if (!message) return;
  const person = question.answered_by
    ? await db.user.findUnique({ where: { id: question.answered_by }, select: { displayName: true, username: true } })
    : null;
  const name = person ? (person.displayName ?? person.username) : "someone";
  await client.chat.update({ channel: message.channel, ts: message.ts, ...answeredQuestionMessage(question, name, via) });
}

function boardLink(question: QuestionResponse): string | null {
  const base = publicUrl();
  return base ? new URL(`/w/${question.workspace_id}?task=${encodeURIComponent(question.task_id)}`, base).toString() : null;
}
