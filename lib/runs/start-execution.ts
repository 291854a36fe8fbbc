import crypto from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { hashSecret, newSecret } from "@/lib/auth/tokens";
import { recordEvents, type NewEvent } from "@/lib/events/record-events";
import { resolveRunAgent } from "@/lib/agents/resolve-run-agent";
import { agentStart } from "@/lib/runs/agent-started-run";
import { agentTokenName } from "@/lib/runs/finish-execution";
import { serializeExecution, serializeTaskRun } from "@/lib/runs/serialize";
import { waitingForRunner } from "@/lib/runs/waiting-for-runner";
import { ACTIVE_RUN_STATUSES, RUN_STATUS, type RunTrigger } from "@/lib/runs/statuses";

export interface StartExecutionInput {
  workspaceId: string;
  taskId: string;
  trigger: RunTrigger;
  instructions: string;
  keepStatus?: boolean;
  /** The user the agent's API token acts as. */
  startedBy: string;
  /** An agent profile of the workspace (404 otherwise); without one the workspace's default. */
  agentId?: string | null;
  /**
   * The agent token asking, when an agent starts the run with its TASKBOARD_API_TOKEN: the run then
   * continues that token's run (its profile, one deeper in the chain, the workspace's rate): lib/runs/agent-started-run.ts.
   */
  agentTokenId?: string | null;
}

/**
 * Records a new attempt on a task: a task run and the execution behind it, both `queued`; a runner
 * waiting in its claim wakes on the events and takes it (lib/dispatch/claim-job.ts). The board automation (the task moves
 * to In progress) reacts to its events (lib/reactions/board-automation.ts). 409 when the task
 * already has one.
 */
export async function startExecution(db: Db, input: StartExecutionInput) {
  const created = await db.$transaction(async (tx) => {
    const created = await createExecution(tx, input);
    await recordEvents(tx, input.workspaceId, startedEvents(created));
    return created;
  });
  return created;
}

/**
 * The same inside a caller's transaction (firing a schedule creates its task in it). The caller
 * records startedEvents() in it as well.
 */
export async function createExecution(tx: Tx, input: StartExecutionInput) {
  // The task row lock makes the check-and-insert atomic: of two concurrent starts only one passes.
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM tasks WHERE id = ${input.taskId} AND workspace_id = ${input.workspaceId} FOR UPDATE`;
  if (locked.length === 0) throw notFound("Task");
  const active = await tx.execution.findFirst({
    where: { taskId: input.taskId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    select: { id: true },
  });
  if (active) throw conflict("An execution of this task is already running");
  const started = input.agentTokenId ? await agentStart(tx, input.workspaceId, input.agentTokenId, input.agentId) : null;
  const agent = started?.agent ?? (await resolveRunAgent(tx, input.workspaceId, input.agentId));
  const last = await tx.taskRun.findFirst({
    where: { taskId: input.taskId },
    orderBy: { attemptNumber: "desc" },
    select: { attemptNumber: true },
  });
  const sessionName = `tb-${input.taskId.slice(-8)}-${crypto.randomBytes(3).toString("hex")}`;
  const run = await tx.taskRun.create({
    data: {
      taskId: input.taskId,
      workspaceId: input.workspaceId,
      attemptNumber: (last?.attemptNumber ?? 0) + 1,
      trigger: input.trigger,
      status: RUN_STATUS.queued,
      sessionId: sessionName,
      agentId: agent.agentId,
      agentName: agent.agentName,
    },
  });
  const execution = await tx.execution.create({
    data: {
      workspaceId: input.workspaceId,
      taskId: input.taskId,
      taskRunId: run.id,
      sessionName,
      trigger: input.trigger,
      instructions: input.instructions,
      keepStatus: input.keepStatus ?? false,
      status: RUN_STATUS.queued,
      agentId: agent.agentId,
      agentProfile: { ...agent.snapshot },
      startedByExecId: started?.startedByExecId ?? null,
      chainDepth: started?.chainDepth ?? 0,
    },
  });
  await reserveAgentToken(tx, input, execution.id);
  // Its first event says at once whether a runner can take it (docs/runners.md).
  return { run, execution, waiting: await waitingForRunner(tx, execution) };
}

export function startedEvents(created: Awaited<ReturnType<typeof createExecution>>): NewEvent[] {
  return [
    { type: "run.updated", taskId: created.run.taskId, data: serializeTaskRun(created.run) },
    { type: "execution.updated", taskId: created.execution.taskId, data: serializeExecution(created.execution, created.waiting) },
  ];
}

/**
 * The execution's agent token is recorded now, with the user who started the run (the execution
 * row has no column for it), under the hash of a secret nobody keeps: it is unusable until the
 * runner that claims the execution re-keys it and hands the new secret to the agent.
 */
async function reserveAgentToken(tx: Tx, input: StartExecutionInput, executionId: string) {
  await tx.authToken.create({
    data: {
      kind: "agent",
      userId: input.startedBy,
      workspaceId: input.workspaceId,
      name: agentTokenName(executionId),
      tokenHash: hashSecret(newSecret("agent")),
      // Not valid before the runner re-keys it; it then expires at the execution's timeout.
      expiresAt: new Date(),
    },
  });
}
