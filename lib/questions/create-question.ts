import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";
import type { createQuestionBody } from "@/lib/questions/schemas";
import { serializeQuestion } from "@/lib/questions/serialize";

export async function createQuestion(db: Db, workspaceId: string, input: z.output<typeof createQuestionBody>) {
  const task = await db.task.findFirst({ where: { id: input.task_id, workspaceId }, select: { id: true, title: true } });
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
      });
      // The title just read, rather than an include (one statement more) that reads it again.
      const question = serializeQuestion({ ...row, task: { title: task.title } });
      await recordEvents(tx, workspaceId, [{ type: "question.created", taskId: row.taskId, data: question }]);
      return question;
    });
  } catch (error) {
    // The task was deleted between the check and the insert.
    if ((error as { code?: string }).code === "P2003") throw notFound("Task");
    throw error;
  }
}
