import type { TaskComment } from "@/lib/generated/prisma/client";
import type { CommentResponse } from "@/lib/comments/schemas";

export type CommentRow = TaskComment & { author: { username: string; displayName: string | null } };

export const COMMENT_INCLUDE = { author: { select: { username: true, displayName: true } } } as const;

export function serializeComment(row: CommentRow): CommentResponse {
  const agent = row.authorTokenId !== null;
  return {
    id: row.id,
    task_id: row.taskId,
    author: agent
      ? { kind: "agent", id: row.authorAgentId ?? row.authorTokenId!, name: row.authorAgentName ?? "Agent" }
      : { kind: "user", id: row.authorId, name: row.author.displayName ?? row.author.username },
    body: row.body,
    mentions: row.mentions,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    edited: row.editedAt !== null,
  };
}
