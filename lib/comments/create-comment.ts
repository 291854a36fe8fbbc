import type { Db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";
import { commentAuthor } from "@/lib/comments/comment-author";
import { findMentions } from "@/lib/comments/mentions";
import { COMMENT_INCLUDE, serializeComment } from "@/lib/comments/serialize";

/**
 * A new comment on a task of the workspace (404 otherwise), with its `comment.created` event in the
 * same transaction. The agent profiles it names are marked on it; the start-mentioned-agents
 * reaction starts their runs once (lib/reactions/start-mentioned-agents.ts).
 */
export async function createComment(db: Db, workspaceId: string, taskId: string, body: string, caller: Caller) {
  return db.$transaction(async (tx) => {
    const task = await tx.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
    if (!task) throw notFound("Task");
    const author = await commentAuthor(tx, workspaceId, caller);
    const named = await findMentions(tx, workspaceId, body);
    const row = await tx.taskComment.create({
      data: {
        workspaceId,
        taskId,
        authorId: author.userId,
        authorTokenId: author.tokenId,
        authorAgentId: author.agentId,
        authorAgentName: author.agentName,
        body,
        mentions: named.userIds,
        agentStartPending: named.agentIds,
      },
      include: COMMENT_INCLUDE,
    });
    const comment = serializeComment(row);
    await recordEvents(tx, workspaceId, [{ type: "comment.created", taskId, data: comment }]);
    return comment;
  });
}
