import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import type { listQuestionsQuery } from "@/lib/questions/schemas";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { QUESTION_STATUS } from "@/lib/questions/statuses";

/**
 * Open questions first, then by priority (0 first), then newest first. The answered ones alone
 * (`status=answered`) come newest answer first, paged by `before` on (answered_at, id), so a page
 * costs the same however far back it is.
 */
export async function listQuestions(db: Db, workspaceId: string, query: z.output<typeof listQuestionsQuery>) {
  const where: Prisma.QuestionWhereInput = { workspaceId, status: query.status, taskId: query.task_id };
  const answered = query.status === QUESTION_STATUS.answered;
  const rows = await db.question.findMany({
    where: answered && query.before ? { ...where, AND: [await after(db, workspaceId, query.before)] } : where,
    orderBy: answered
      ? [{ answeredAt: "desc" }, { id: "desc" }]
      : // "open" sorts after "answered", so descending puts open first.
        [{ status: "desc" }, { priority: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    include: withTaskTitle,
  });
  return rows.map(serializeQuestion);
}

/** The answered questions listed after `before`. Every answer sets answered_at (an answer and a closed permission request alike). */
async function after(db: Db, workspaceId: string, before: string): Promise<Prisma.QuestionWhereInput> {
  const last = await db.question.findFirst({ where: { id: before, workspaceId }, select: { id: true, answeredAt: true } });
  if (!last?.answeredAt) throw notFound("Question");
  return { OR: [{ answeredAt: { lt: last.answeredAt } }, { answeredAt: last.answeredAt, id: { lt: last.id } }] };
}
