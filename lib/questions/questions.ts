import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { agentRefused, conflict, forbidden, notFound, ValidationError } from "@/lib/platform/errors";
import { chosenOption, type PermissionOption } from "@/lib/questions/permission-options";
import { recordEvents } from "@/lib/events/record-events";
import type { createQuestionBody, listQuestionsQuery } from "@/lib/questions/schemas";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { QUESTION_STATUS } from "@/lib/questions/statuses";

export async function createQuestion(db: Db, workspaceId: string, input: z.output<typeof createQuestionBody>) {
  const task = await db.task.findFirst({ where: { id: input.task_id, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.question.create({
        data: {
          workspaceId,
          taskId: task.id,
          content: input.content,
          context: input.context,
          options: input.options ?? Prisma.DbNull,
          priority: input.priority,
        },
        include: withTaskTitle,
      });
      const question = serializeQuestion(row);
      await recordEvents(tx, workspaceId, [{ type: "question.created", taskId: row.taskId, data: question }]);
      return question;
    });
  } catch (error) {
    // The task was deleted between the check and the insert.
    if ((error as { code?: string }).code === "P2003") throw notFound("Task");
    throw error;
  }
}

/** Open questions first, then by priority (0 first), then newest first. */
export async function listQuestions(db: Db, workspaceId: string, query: z.output<typeof listQuestionsQuery>) {
  const rows = await db.question.findMany({
    where: { workspaceId, status: query.status, taskId: query.task_id },
    // "open" sorts after "answered", so descending puts open first.
    orderBy: [{ status: "desc" }, { priority: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    include: withTaskTitle,
  });
  return rows.map(serializeQuestion);
}

export async function getQuestion(db: Db, workspaceId: string, questionId: string) {
  const row = await db.question.findFirst({ where: { id: questionId, workspaceId }, include: withTaskTitle });
  if (!row) throw notFound("Question");
  return serializeQuestion(row);
}

/**
 * A person (`answeredBy`, recorded as answered_by) answers an open question; the status guard in
 * the update makes two concurrent answers give one 409. Agent tokens never get here (the route is
 * humansOnly).
 */
export async function answerQuestion(db: Db, workspaceId: string, questionId: string, answer: string, answeredBy: string) {
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
      },
    });
    const row = await tx.question.findFirst({ where: { id: questionId, workspaceId }, include: withTaskTitle });
    if (!row) throw notFound("Question");
    if (count === 0) throw conflict("Question is already answered");
    const question = serializeQuestion(row);
    await recordEvents(tx, workspaceId, [{ type: "question.answered", taskId: row.taskId, data: question }]);
    return question;
  });
}

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
