import { HttpError } from "@/lib/platform/errors";
import { actingAs } from "@/lib/events/actor";
import type { WorkspaceEvent } from "@/lib/events/event-types";
import { previousEventData } from "@/lib/reactions/previous-event";
import type { Reaction } from "@/lib/reactions/reaction";
import { startManualRun } from "@/lib/runs/start-run";
import type { ColumnKey } from "@/lib/tasks/columns";

const DONE: ColumnKey = "done";
const TODO: ColumnKey = "todo";
const TASK_STATES = ["task.created", "task.updated", "task.moved"] as const;

type TaskData = { id: string; status: string };

/**
 * A task moved into done: when the workspace has `auto_start_unblocked` on, starts the default agent
 * on each of its dependants that is in todo and has no open blocker left, as the person (or agent
 * token's user) who made the move. The server's own moves (a merged pull request) start nothing:
 * there is no user for the agent's token to act as. A dependant that cannot start (already running)
 * is left as it is.
 */
export const startUnblocked: Reaction = {
  name: "start-unblocked",
  description: "Starts the default agent on tasks whose last blocker is done (the workspace's auto_start_unblocked).",
  types: ["task.moved", "task.updated"],
  match: { field: "status", values: [DONE] },
  async handle(db, event) {
    const { data, task_id: blockerId, workspace_id: workspaceId, actor } = event as WorkspaceEvent<TaskData>;
    const userId = actor.user_id;
    if (!blockerId || data.status !== DONE || !userId) return;
    const before = await previousEventData<TaskData>(db, blockerId, event.id, TASK_STATES, blockerId);
    if (before?.status === DONE) return;
    const ready = await db.$queryRaw<{ id: string }[]>`
      SELECT t.id
      FROM workspaces w
      JOIN task_dependencies d ON d.blocker_id = ${blockerId} AND d.workspace_id = w.id
      JOIN tasks t ON t.id = d.task_id AND t.status = ${TODO}
      JOIN task_board_extras e ON e.task_id = t.id AND e.open_blockers = 0
      WHERE w.id = ${workspaceId} AND w.auto_start_unblocked
      ORDER BY t.position`;
    for (const { id } of ready) {
      try {
        await actingAs(actor, () => startManualRun(db, workspaceId, id, { userId, answerQueued: true }));
      } catch (error) {
        // Already running, or blocked again since: the dependant stays as it is.
        if (!(error instanceof HttpError && error.status === 409)) throw error;
      }
    }
  },
};
