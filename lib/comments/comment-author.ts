import type { Tx } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { agentTokenName } from "@/lib/runs/finish-execution";

export interface CommentAuthor {
  userId: string;
  tokenId: string | null;
  agentId: string | null;
  agentName: string | null;
}

/**
 * A person comments as themselves (any of their credentials). An agent's token comments as the
 * agent of the run it was made for: that run's profile (id and name as they are now), or for a run
 * without one (AGENT_COMMAND, the demo agent) the agent's name the run recorded.
 */
export async function commentAuthor(tx: Tx, workspaceId: string, caller: Caller): Promise<CommentAuthor> {
  if (caller.kind !== "agent") return { userId: caller.userId, tokenId: null, agentId: null, agentName: null };
  const token = await tx.authToken.findUnique({ where: { id: caller.tokenId }, select: { name: true } });
  const prefix = agentTokenName("");
  const executionId = token?.name?.startsWith(prefix) ? token.name.slice(prefix.length) : null;
  const execution = executionId
    ? await tx.execution.findFirst({
        where: { id: executionId, workspaceId },
        select: { agentId: true, taskRun: { select: { agentName: true } } },
      })
    : null;
  const profile = execution?.agentId
    ? await tx.agentProfile.findFirst({ where: { id: execution.agentId, workspaceId }, select: { id: true, name: true } })
    : null;
  return {
    userId: caller.userId,
    tokenId: caller.tokenId,
    agentId: profile?.id ?? executionId,
    agentName: profile?.name ?? execution?.taskRun.agentName ?? "Agent",
  };
}

/** Only a comment's author changes it: the same person (not an agent acting for them), or the same run's token. */
export function isAuthor(comment: { authorId: string; authorTokenId: string | null }, caller: Caller): boolean {
  if (comment.authorTokenId !== null) return caller.kind === "agent" && caller.tokenId === comment.authorTokenId;
  return caller.kind !== "agent" && caller.userId === comment.authorId;
}
