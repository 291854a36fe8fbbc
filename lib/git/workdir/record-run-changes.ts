import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { branchChanges, type Worktree } from "@/lib/git/task-worktree";
import { serializeTaskRun } from "@/lib/runs/serialize";

/** Stores the branch's changes against its base on the execution's task run (commit, files, lines). */
export async function recordRunChanges(db: Db, execution: Execution, worktree: Worktree, defaultBranch: string) {
  const changes = await branchChanges(worktree, defaultBranch);
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
  return changes;
}
