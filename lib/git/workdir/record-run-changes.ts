import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { branchChanges, type Worktree } from "@/lib/git/task-worktree";
import { serializeTaskRun } from "@/lib/runs/serialize";

/** Stores the branch's changes against its base on the execution's task run (commit, files, lines). */
export async function recordRunChanges(db: Db, execution: Execution, worktree: Worktree, defaultBranch: string) {
  const changes = await branchChanges(worktree, defaultBranch);
  await storeRunChanges(db, execution, changes);
}

/** The same, with the changes a runner measured in its worktree (POST /api/runner/executions/{id}/finish). */
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
