import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { actingAs, SYSTEM_ACTOR } from "@/lib/events/actor";
import { isActiveRunStatus, RUN_STATUS, RUN_TRIGGER } from "@/lib/runs/statuses";
import type { ColumnKey } from "@/lib/tasks/columns";
import { moveTaskFrom } from "@/lib/tasks/move-task";

// Board automation (docs/board-automation.md): what an agent run does to its task's column, in
// one place. Called after the commit that started a run (lib/runs/start-execution.ts, a schedule's
// announceFired) and after the one that finished it (lib/runs/finish-execution.ts).
//
// - A run starts on a task in Backlog or To do: the task moves to In progress.
// - A run succeeds and the task's branch has changes against its base: a task in In progress
//   moves to In review.
//
// Only forward, and only from those columns: a task a person put anywhere else (back to To do,
// on to Done) stays there. Off with the workspace's `auto_move_tasks`. A conflict fix follows its
// own rule (keep_status; lib/runs/finish-execution.ts). The move is moveTask's own (end of the
// column, under its lock, a task.moved event), made as the server (actor "system").

interface Step {
  to: ColumnKey;
  from: readonly ColumnKey[];
}

const ON_START: Step = { to: "in_progress", from: ["backlog", "todo"] };
const ON_SUCCESS: Step = { to: "in_review", from: ["in_progress"] };

/** Never throws: a move that cannot be made is logged, and the run goes on as if it were off. */
export async function advanceTaskOnRun(db: Db, execution: Execution): Promise<void> {
  try {
    const step = await stepFor(db, execution);
    if (!step) return;
    const workspace = await db.workspace.findUnique({ where: { id: execution.workspaceId }, select: { autoMoveTasks: true } });
    if (!workspace?.autoMoveTasks) return;
    await actingAs(SYSTEM_ACTOR, () => moveTaskFrom(db, execution.workspaceId, execution.taskId, step.to, step.from));
  } catch (error) {
    console.error(`[taskboard] board automation for execution ${execution.id}: ${(error as Error).message}`);
  }
}

async function stepFor(db: Db, execution: Execution): Promise<Step | null> {
  if (execution.keepStatus) return null;
  if (isActiveRunStatus(execution.status)) return ON_START;
  if (execution.status !== RUN_STATUS.succeeded || execution.trigger === RUN_TRIGGER.fix_conflicts) return null;
  // Recorded on the run by the worktree's conclusion (lib/git/workdir/conclude-workdir.ts); null without a repository.
  const run = await db.taskRun.findUnique({ where: { id: execution.taskRunId }, select: { filesChanged: true } });
  return (run?.filesChanged ?? 0) > 0 ? ON_SUCCESS : null;
}
