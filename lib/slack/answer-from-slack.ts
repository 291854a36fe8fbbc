import type { Db } from "@/lib/db/client";
import { answerAsPerson } from "@/lib/questions/answer-as-person";

// A click or a thread reply in Slack answers a question as the person the Slack account belongs to
// (linked by email, docs/slack.md); answerAsPerson checks that person's rights on the board.

export interface SlackAnswer {
  slackUserId: string;
  questionId: string;
  answer: string;
}

/** Null when the answer was taken; otherwise the words to say back to the person in Slack. */
export async function answerFromSlack(db: Db, { slackUserId, questionId, answer }: SlackAnswer): Promise<string | null> {
  const person = await db.user.findUnique({ where: { slackUserId }, select: { id: true, disabled: true } });
  if (!person || person.disabled) {
    return "Your Slack account is not linked to anyone on the board. The board finds people by the email address in their profile (Settings → Profile); ask for it to match your Slack email.";
  }
  return answerAsPerson(db, { userId: person.id, questionId, answer, via: "slack" });
}
