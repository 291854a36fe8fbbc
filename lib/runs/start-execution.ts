import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/api/errors";
import { publishEvent } from "@/lib/events/publish";
import { serializeExecution, serializeTaskRun } from "@/lib/runs/serialize";

export type RunTrigger = "manual" | "schedule" | "fix_conflicts";

export const ACTIVE_STATUSES = ["queued", "running"];

export interface StartExecutionInput {
  workspaceId: string;
  taskId: string;
  trigger: RunTrigger;
  instructions: string;
  keepStatus?: boolean;
}

/**
 * Records a new attempt on a task: a task run and the execution behind it, both `queued`.
 * The task row is locked for the check-and-insert so two concurrent starts cannot both pass the
 * "one active execution per task" rule. The runner (lib/runner) picks queued executions up.
 */
export async function startExecution(db: Db, input: StartExecutionInput) {
  const { run, execution } = await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM tasks WHERE id = ${input.taskId} AND workspace_id = ${input.workspaceId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("Task");
    const active = await tx.execution.findFirst({
      where: { taskId: input.taskId, status: { in: ACTIVE_STATUSES } },
      select: { id: true },
    });
    if (active) throw conflict("An execution of this task is already running");
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
        status: "queued",
        sessionId: sessionName,
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
        status: "queued",
      },
    });
    return { run, execution };
  });
  publishEvent(input.workspaceId, "run.updated", serializeTaskRun(run));
  publishEvent(input.workspaceId, "execution.updated", serializeExecution(execution));
  return { run, execution };
}
