import type { Db } from "@/lib/db/client";
import { actingAs } from "@/lib/events/actor";
import { HttpError } from "@/lib/platform/errors";
import { answerQuestion } from "@/lib/questions/answer-question";

// A click or a thread reply in Slack answers a question as the person the Slack account belongs to,
// with that person's rights on the board: a member or owner of the question's workspace, never a
// viewer. Whatever refuses it is said back to them in words; nothing changes.

export interface SlackAnswer {
  slackUserId: string;
  questionId: string;
  answer: string;
}

/** Null when the answer was taken; otherwise the words to say back to the person in Slack. */
export async function answerFromSlack(db: Db, { slackUserId, questionId, answer }: SlackAnswer): Promise<string | null> {
  const question = await db.question.findUnique({ where: { id: questionId }, select: { workspaceId: true } });
  if (!question) return "That question no longer exists on the board.";
  const person = await db.user.findUnique({
    where: { slackUserId },
    select: {
      id: true,
      username: true,
      disabled: true,
      memberships: { where: { workspaceId: question.workspaceId }, select: { role: true } },
    },
  });
  if (!person || person.disabled) {
    return "Your Slack account is not linked to anyone on the board. The board finds people by the email address in their profile (Settings → Profile); ask for it to match your Slack email.";
  }
  const role = person.memberships[0]?.role;
  if (!role) return "You are not a member of the workspace this question belongs to, so you cannot answer it.";
  if (role === "viewer") return "Viewers cannot answer questions. Ask a workspace owner to make you a member.";
  try {
    // The answer's event names the person, as their answer on the board would.
    const actor = { type: "user" as const, user_id: person.id, username: person.username };
    await actingAs(actor, () => answerQuestion(db, question.workspaceId, questionId, answer, person.id, "slack"));
    return null;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return sentence(error);
    throw error;
  }
}

function sentence(error: HttpError): string {
  if (Array.isArray(error.detail)) return error.detail.map((entry: { msg?: string }) => `${entry.msg}.`).join(" ");
  const text = error.message.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
