import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { waitingForRunners } from "@/lib/runs/waiting-for-runner";
import { RUN_STATUS } from "@/lib/runs/statuses";

export async function listTaskRuns(db: Db, workspaceId: string, taskId: string, limit: number) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
  const runs = await db.taskRun.findMany({
    where: { taskId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { execution: { select: { id: true } } },
  });
  const waiting = await waitingForRunners(
    db,
    runs.flatMap((run) => (run.status === RUN_STATUS.queued && run.execution ? [run.execution.id] : [])),
  );
  // The history opens each run's live view, which reads the execution.
  return runs.map((run) => ({
    ...serializeTaskRun(run),
    execution_id: run.execution?.id ?? null,
    waiting_for_runner: (run.execution && waiting.get(run.execution.id)) ?? null,
  }));
}
