import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { setWaiting } from "@/lib/runs/raise-permission-question";
import { RUN_STATUS } from "@/lib/runs/statuses";

/**
 * After the answer to a permission question (or the cancel): an open question is closed as
 * `cancelled`, and the run and execution are `running` again unless another permission question of
 * theirs is still open.
 */
export async function settlePermissionQuestion(db: Db, execution: Execution, questionId: string) {
  await db.$transaction(async (tx) => {
    const { count } = await tx.question.updateMany({
      where: { id: questionId, status: QUESTION_STATUS.open },
      data: { answer: "cancelled", status: QUESTION_STATUS.answered, answeredAt: new Date() },
    });
    const closed = count > 0 ? await tx.question.findUnique({ where: { id: questionId }, include: withTaskTitle }) : null;
    const stillOpen = await tx.question.count({ where: { executionId: execution.id, status: QUESTION_STATUS.open } });
    const changed = stillOpen === 0 ? await setWaiting(tx, execution.id, RUN_STATUS.waiting_for_input, RUN_STATUS.running) : [];
    await recordEvents(tx, execution.workspaceId, [
      ...(closed ? [{ type: "question.answered" as const, taskId: closed.taskId, data: serializeQuestion(closed) }] : []),
      ...changed,
    ]);
  });
}
