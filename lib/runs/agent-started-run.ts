import type { Tx } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { agentRunChainMax } from "@/lib/config";
import { forbidden } from "@/lib/platform/errors";
import { resolveRunAgent, type AgentSnapshot, type RunAgent } from "@/lib/agents/resolve-run-agent";
import { agentTokenName } from "@/lib/runs/finish-execution";
import { takeAgentRunSlot } from "@/lib/runs/agent-run-limiter";

// A run started with an agent's token (TASKBOARD_API_TOKEN; the REST route, MCP start_run, a
// conflict fix) continues the run that token belongs to. Without these rules a prompt-injected
// agent could pick a profile with more network or more keys, and chain runs without end, each with
// a fresh token that outlives its starter's revocation (issue #35, finding 4; docs/SECURITY.md).

export interface AgentStart {
  agent: RunAgent;
  /** The run whose token started it, and how many agent-started runs lead to the new one. */
  startedByExecId: string;
  chainDepth: number;
}

/**
 * The new run's profile is its starter's (any other `agent_id` answers 403), it is one deeper in
 * the chain of agent-started runs (403 past AGENT_RUN_CHAIN_MAX), and it counts toward the
 * workspace's rate of agent-started runs (429, lib/runs/agent-run-limiter.ts), in that order, so a
 * refused profile or chain costs no slot.
 */
export async function agentStart(tx: Tx, workspaceId: string, tokenId: string, requestedAgentId?: string | null): Promise<AgentStart> {
  const parent = await startingExecution(tx, workspaceId, tokenId);
  if (requestedAgentId && requestedAgentId !== parent.agentId) {
    throw forbidden(
      "An agent token may start runs only with the agent profile of its own run: leave out agent_id (choosing another profile is for people)",
    );
  }
  const max = agentRunChainMax();
  if (parent.chainDepth + 1 > max) {
    throw forbidden(
      `This run is already ${parent.chainDepth} deep in a chain of runs started by agents, and agents may chain at most ${max} (AGENT_RUN_CHAIN_MAX): a person must start the next run`,
    );
  }
  await takeAgentRunSlot(workspaceId);
  return { agent: await starterAgent(tx, workspaceId, parent), startedByExecId: parent.id, chainDepth: parent.chainDepth + 1 };
}

/** The execution an agent token was made for (its name, lib/runs/finish-execution.ts). */
async function startingExecution(tx: Tx, workspaceId: string, tokenId: string) {
  const token = await tx.authToken.findUnique({ where: { id: tokenId }, select: { name: true } });
  const prefix = agentTokenName("");
  const executionId = token?.name?.startsWith(prefix) ? token.name.slice(prefix.length) : null;
  const parent = executionId
    ? await tx.execution.findFirst({ where: { id: executionId, workspaceId }, include: { taskRun: { select: { agentName: true } } } })
    : null;
  if (!parent) throw forbidden("This agent token belongs to no run of this workspace, so it may not start runs");
  return parent;
}

/**
 * A profile as it is now (an owner's later change counts, as for any run), or when the starter ran
 * without one (AGENT_COMMAND, the demo agent) the very agent it ran: the workspace's default
 * profile, which may allow more, is not that.
 */
async function starterAgent(tx: Tx, workspaceId: string, parent: Execution & { taskRun: { agentName: string | null } }): Promise<RunAgent> {
  if (parent.agentId) {
    const exists = await tx.agentProfile.findFirst({ where: { id: parent.agentId, workspaceId }, select: { id: true } });
    if (!exists) throw forbidden("The agent profile of this agent's run was deleted since, so its token may not start runs");
    return resolveRunAgent(tx, workspaceId, parent.agentId);
  }
  const snapshot = parent.agentProfile as unknown as AgentSnapshot | null;
  if (!snapshot) throw forbidden("This agent's run has no recorded agent, so its token may not start runs");
  return { agentId: null, agentName: parent.taskRun.agentName ?? snapshot.name, snapshot };
}
