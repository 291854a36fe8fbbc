import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { serializeTaskRun } from "@/lib/runs/serialize";

// The ACP session facts the server keeps about runs: which earlier session a follow-up continues
// (handed out with the job), and the model a session said it uses (reported by the runner).

/**
 * The ACP session of the task's latest earlier run with the same profile, for a follow-up to
 * continue (session/load, where the agent supports it). Sessions belong to one agent, so a run of
 * another profile (or none) starts afresh.
 */
export async function previousSession(db: Db, execution: Execution): Promise<string | null> {
  if (!execution.agentId) return null;
  const earlier = await db.execution.findFirst({
    where: { taskId: execution.taskId, agentId: execution.agentId, acpSessionId: { not: null }, NOT: { id: execution.id } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { acpSessionId: true },
  });
  return earlier?.acpSessionId ?? null;
}

/** The model the agent's session says it uses, on the task run (the run view shows it). */
export async function recordRunModel(db: Db, execution: Execution, model: string) {
  try {
    await db.$transaction(async (tx) => {
      const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { model: model.slice(0, 200) } });
      await recordEvents(tx, execution.workspaceId, [{ type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) }]);
    });
  } catch (error) {
    console.error(`[taskboard] execution ${execution.id}: could not record its model: ${(error as Error).message}`);
  }
}
