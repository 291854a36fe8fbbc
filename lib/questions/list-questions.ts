import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { listQuestionsQuery } from "@/lib/questions/schemas";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";

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
