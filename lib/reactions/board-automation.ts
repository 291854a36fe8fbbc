import type { Db } from "@/lib/db/client";
import { actingAs, SYSTEM_ACTOR } from "@/lib/events/actor";
import type { WorkspaceEvent } from "@/lib/events/event-types";
import { previousEventData } from "@/lib/reactions/previous-event";
import type { Reaction } from "@/lib/reactions/reaction";
import { isActiveRunStatus, RUN_STATUS, RUN_TRIGGER, type RunStatus } from "@/lib/runs/statuses";
import type { ColumnKey } from "@/lib/tasks/columns";
import { moveTaskFrom } from "@/lib/tasks/move-task";

// Board automation (docs/board-automation.md): what an agent run does to its task's column.
//
// - A run is created on a task in Backlog or To do: the task moves to In progress.
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

type ExecutionData = { id: string; status: RunStatus };

export const boardAutomation: Reaction = {
  name: "board-automation",
  description: "Moves a task to In progress when a run starts on it, and to In review when a run succeeds with changes.",
  types: ["execution.updated"],
  match: { field: "status", values: [RUN_STATUS.queued, RUN_STATUS.succeeded] },
  async handle(db, event) {
    const step = await stepFor(db, event as WorkspaceEvent<ExecutionData>);
    if (!step || !event.task_id) return;
    const workspace = await db.workspace.findUnique({ where: { id: event.workspace_id }, select: { autoMoveTasks: true } });
    if (!workspace?.autoMoveTasks) return;
    await actingAs(SYSTEM_ACTOR, () => moveTaskFrom(db, event.workspace_id, event.task_id!, step.to, step.from));
  },
};

async function stepFor(db: Db, event: WorkspaceEvent<ExecutionData>): Promise<Step | null> {
  const { id, status } = event.data;
  const starting = isActiveRunStatus(status);
  if (!starting && status !== RUN_STATUS.succeeded) return null;
  const previous = await previousEventData<ExecutionData>(db, event.task_id!, event.id, ["execution.updated"], id);
  // The start is the execution's first event; success, the first that says succeeded.
  if (starting ? previous !== null : previous?.status === RUN_STATUS.succeeded) return null;
  const execution = await db.execution.findUnique({ where: { id }, select: { keepStatus: true, trigger: true, taskRunId: true } });
  if (!execution || execution.keepStatus) return null;
  if (starting) return ON_START;
  if (execution.trigger === RUN_TRIGGER.fix_conflicts) return null;
  // Recorded on the run by the worktree's conclusion; null without a repository.
  const run = await db.taskRun.findUnique({ where: { id: execution.taskRunId }, select: { filesChanged: true } });
  return (run?.filesChanged ?? 0) > 0 ? ON_SUCCESS : null;
}
