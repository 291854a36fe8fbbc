import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { serializeTaskRun } from "@/lib/runs/serialize";

/** Stores the branch's changes against its base on the task run, as the runner measured them (POST /api/runner/executions/{id}/finish). */
export async function storeRunChanges(
  db: Db,
  execution: Pick<Execution, "taskRunId" | "workspaceId">,
  changes: { commitSha: string | null; filesChanged: number; linesAdded: number; linesRemoved: number },
) {
  await db.$transaction(async (tx) => {
    const run = await tx.taskRun.update({
      where: { id: execution.taskRunId },
      data: {
        commitSha: changes.commitSha,
        filesChanged: changes.filesChanged,
        linesAdded: changes.linesAdded,
        linesRemoved: changes.linesRemoved,
      },
    });
    await recordEvents(tx, execution.workspaceId, [{ type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) }]);
  });
}
