import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { COMMENT_INCLUDE, serializeComment } from "@/lib/comments/serialize";

/**
 * A page of a task's comments: the newest `limit` older than `before` (a comment id of this task;
 * 404 for any other), returned oldest first. Keyset paging on (created_at, id).
 */
export async function listComments(db: Db, workspaceId: string, taskId: string, before: string | undefined, limit: number) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
  let older = {};
  if (before) {
    const cursor = await db.taskComment.findFirst({ where: { id: before, taskId }, select: { id: true, createdAt: true } });
    if (!cursor) throw notFound("Comment (before)");
    older = { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
  }
  const rows = await db.taskComment.findMany({
    where: { taskId, ...older },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: COMMENT_INCLUDE,
  });
  const page = rows.slice(0, limit).reverse();
  return { items: page.map(serializeComment), next_before: rows.length > limit ? page[0].id : null };
}
