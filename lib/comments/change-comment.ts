import type { Tx } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { forbidden, notFound } from "@/lib/platform/errors";
import { isAuthor } from "@/lib/comments/comment-author";

/** The comment, locked, when it is on this task of this workspace (404 otherwise) and the caller wrote it (403 otherwise). */
export async function authoredComment(tx: Tx, workspaceId: string, taskId: string, commentId: string, caller: Caller, verb: string) {
  const [found] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM task_comments WHERE id = ${commentId} AND task_id = ${taskId} AND workspace_id = ${workspaceId} FOR UPDATE`;
  if (!found) throw notFound("Comment");
  const comment = await tx.taskComment.findUniqueOrThrow({ where: { id: commentId }, select: { authorId: true, authorTokenId: true } });
  if (!isAuthor(comment, caller)) throw forbidden(`Only the author of a comment may ${verb} it`);
  return comment;
}
