import type { Db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { recordEvents } from "@/lib/events/record-events";
import { authoredComment } from "@/lib/comments/change-comment";

/** Its author removes it; the event says which ({id, task_id}). */
export async function deleteComment(db: Db, workspaceId: string, taskId: string, commentId: string, caller: Caller) {
  await db.$transaction(async (tx) => {
    await authoredComment(tx, workspaceId, taskId, commentId, caller, "delete");
    await tx.taskComment.delete({ where: { id: commentId }, select: { id: true } });
    await recordEvents(tx, workspaceId, [{ type: "comment.deleted", taskId, data: { id: commentId, task_id: taskId } }]);
  });
}
