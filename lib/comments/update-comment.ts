import type { Db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { recordEvents } from "@/lib/events/record-events";
import { authoredComment } from "@/lib/comments/change-comment";
import { findMentions } from "@/lib/comments/mentions";
import { COMMENT_INCLUDE, serializeComment } from "@/lib/comments/serialize";

/**
 * Its author's new text. The members it mentions are found again; an agent named only in the edit
 * is not started (a run starts from a new comment, so fixing a typo never starts one twice).
 */
export async function updateComment(db: Db, workspaceId: string, taskId: string, commentId: string, body: string, caller: Caller) {
  return db.$transaction(async (tx) => {
    await authoredComment(tx, workspaceId, taskId, commentId, caller, "edit");
    const named = await findMentions(tx, workspaceId, body);
    const now = new Date();
    const row = await tx.taskComment.update({
      where: { id: commentId },
      data: { body, mentions: named.userIds, updatedAt: now, editedAt: now },
      include: COMMENT_INCLUDE,
    });
    const comment = serializeComment(row);
    await recordEvents(tx, workspaceId, [{ type: "comment.updated", taskId, data: comment }]);
    return comment;
  });
}
