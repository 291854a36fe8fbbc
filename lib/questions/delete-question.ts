import type { Db } from "@/lib/db/client";
import { agentRefused, forbidden, notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";
import { QUESTION_STATUS } from "@/lib/questions/statuses";

/**
 * Deleting an open permission request answers its agent "cancelled", so an agent token (`byAgent`)
 * may not: it would be answering a question, another run's included.
 */
export async function deleteQuestion(db: Db, workspaceId: string, questionId: string, byAgent = false) {
  const row = await db.question.findFirst({
    where: { id: questionId, workspaceId },
    select: { id: true, taskId: true, executionId: true, status: true },
  });
  if (!row) throw notFound("Question");
  if (byAgent && row.executionId && row.status === QUESTION_STATUS.open) {
    throw forbidden(agentRefused("delete an open permission request: that answers it"));
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.question.deleteMany({ where: { id: row.id, workspaceId } });
    if (count === 0) throw notFound("Question");
    await recordEvents(tx, workspaceId, [{ type: "question.deleted", taskId: row.taskId, data: { id: row.id, task_id: row.taskId } }]);
  });
}
