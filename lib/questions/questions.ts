import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/api/errors";
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

/** Answers an open question; the status guard in the update makes two concurrent answers give one 409. */
export async function answerQuestion(db: Db, workspaceId: string, questionId: string, answer: string) {
  return db.$transaction(async (tx) => {
    const { count } = await tx.question.updateMany({
      where: { id: questionId, workspaceId, status: QUESTION_STATUS.open },
      data: { answer, status: QUESTION_STATUS.answered, answeredAt: new Date() },
    });
    const row = await tx.question.findFirst({ where: { id: questionId, workspaceId }, include: withTaskTitle });
    if (!row) throw notFound("Question");
    if (count === 0) throw conflict("Question is already answered");
    const question = serializeQuestion(row);
    await recordEvents(tx, workspaceId, [{ type: "question.answered", taskId: row.taskId, data: question }]);
    return question;
  });
}

export async function deleteQuestion(db: Db, workspaceId: string, questionId: string) {
  const row = await db.question.findFirst({ where: { id: questionId, workspaceId }, select: { id: true, taskId: true } });
  if (!row) throw notFound("Question");
  await db.$transaction(async (tx) => {
    const { count } = await tx.question.deleteMany({ where: { id: row.id, workspaceId } });
    if (count === 0) throw notFound("Question");
    await recordEvents(tx, workspaceId, [{ type: "question.deleted", taskId: row.taskId, data: { id: row.id, task_id: row.taskId } }]);
  });
}
