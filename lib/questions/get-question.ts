import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";

export async function getQuestion(db: Db, workspaceId: string, questionId: string) {
  const row = await db.question.findFirst({ where: { id: questionId, workspaceId }, include: withTaskTitle });
  if (!row) throw notFound("Question");
  return serializeQuestion(row);
}
