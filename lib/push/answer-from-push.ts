import type { Db } from "@/lib/db/client";
import { HttpError } from "@/lib/platform/errors";
import { answerAsPerson } from "@/lib/questions/answer-as-person";
import { redeemAnswerKey } from "@/lib/questions/answer-keys";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";

// A notification's action (public/sw.js) answers without a session: the key it carries is the
// credential, for one question and one person, who answers with their rights on the board. A dead
// key is a 401, a refusal of the person a 403, each with the words the service worker shows.

export async function answerFromPush(db: Db, key: string, answer: string) {
  const redeemed = await redeemAnswerKey(db, key);
  if (!redeemed.ok || redeemed.grant.channel !== "push") {
    throw new HttpError(401, redeemed.ok ? "This answer link is not valid." : redeemed.reason);
  }
  const { questionId, userId } = redeemed.grant;
  const refused = await answerAsPerson(db, { userId, questionId, answer, via: "push" });
  if (refused) throw new HttpError(403, refused);
  const row = await db.question.findUniqueOrThrow({ where: { id: questionId }, include: withTaskTitle });
  return serializeQuestion(row);
}
