import type { Db } from "@/lib/db/client";
import { conflict, notFound, ValidationError } from "@/lib/platform/errors";
import { chosenOption, type PermissionOption } from "@/lib/questions/permission-options";
import { recordEvents } from "@/lib/events/record-events";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import type { AnswerChannel } from "@/lib/questions/answer-channels";

/**
 * A person (`answeredBy`, recorded as answered_by) answers an open question through a channel
 * (`via`, recorded as answered_via); the status guard in the update makes two concurrent answers
 * give one 409, which names who answered first and where. Agent tokens never get here (the route
 * is humansOnly).
 */
export async function answerQuestion(
  db: Db,
  workspaceId: string,
  questionId: string,
  answer: string,
  answeredBy: string,
  via: AnswerChannel,
) {
  // An agent's permission request is answered with one of its options' names (the runner maps the name back).
  const asked = await db.question.findFirst({ where: { id: questionId, workspaceId }, select: { permissionOptions: true, status: true } });
  if (asked?.status === QUESTION_STATUS.open && asked.permissionOptions && !chosenOption(asked.permissionOptions, answer)) {
    throw new ValidationError([
      {
        type: "enum",
        loc: ["body", "answer"],
        msg: `The agent asked for one of its options: ${(asked.permissionOptions as unknown as PermissionOption[]).map((o) => o.name).join(", ")}`,
        input: answer,
      },
    ]);
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.question.updateMany({
      where: { id: questionId, workspaceId, status: QUESTION_STATUS.open },
      data: {
        answer: asked?.permissionOptions ? answer.trim() : answer,
        status: QUESTION_STATUS.answered,
        answeredAt: new Date(),
        answeredById: answeredBy,
        answeredVia: via,
      },
    });
    const row = await tx.question.findFirst({ where: { id: questionId, workspaceId }, include: withTaskTitle });
    if (!row) throw notFound("Question");
    if (count === 0) {
      // Who answered first is read only for this 409.
      const by =
        row.answeredById && (await tx.user.findUnique({ where: { id: row.answeredById }, select: { username: true, displayName: true } }));
      throw conflict(alreadyAnswered(by || null, row.answeredVia));
    }
    const question = serializeQuestion(row);
    await recordEvents(tx, workspaceId, [{ type: "question.answered", taskId: row.taskId, data: question }]);
    return question;
  });
}

function alreadyAnswered(by: { username: string; displayName: string | null } | null, via: string | null): string {
  if (!by) return "Question is already answered";
  return `Question is already answered by ${by.displayName ?? by.username}${via ? ` via ${via}` : ""}`;
}
