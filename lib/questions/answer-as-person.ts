import type { Db } from "@/lib/db/client";
import { actingAs } from "@/lib/events/actor";
import { HttpError } from "@/lib/platform/errors";
import { answerQuestion } from "@/lib/questions/answer-question";
import type { AnswerChannel } from "@/lib/questions/answer-channels";

// An answer from outside the board (a Slack click, a push notification's action, a mail reply) is
// given as the person it came from, with that person's rights on the board: a member or owner of the
// question's workspace, never a viewer, never a disabled account. One function for every channel so
// the rule cannot drift between them. A refusal comes back as words to say to the person; nothing
// changes.

export interface OutsideAnswer {
  userId: string;
  questionId: string;
  answer: string;
  via: Exclude<AnswerChannel, "board" | "api" | "mcp">;
}

/** Null when the answer was taken; otherwise the words that say why not. */
export async function answerAsPerson(db: Db, { userId, questionId, answer, via }: OutsideAnswer): Promise<string | null> {
  const question = await db.question.findUnique({ where: { id: questionId }, select: { workspaceId: true } });
  if (!question) return "That question no longer exists on the board.";
  const person = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      username: true,
      disabled: true,
      memberships: { where: { workspaceId: question.workspaceId }, select: { role: true } },
    },
  });
  if (!person || person.disabled) return "Your account on the board is disabled, so you cannot answer questions.";
  const role = person.memberships[0]?.role;
  if (!role) return "You are not a member of the workspace this question belongs to, so you cannot answer it.";
  if (role === "viewer") return "Viewers cannot answer questions. Ask a workspace owner to make you a member.";
  try {
    // The answer's event names the person, as their answer on the board would.
    const actor = { type: "user" as const, user_id: person.id, username: person.username };
    await actingAs(actor, () => answerQuestion(db, question.workspaceId, questionId, answer, person.id, via));
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
