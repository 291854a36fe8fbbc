import type { Db } from "@/lib/db/client";
import { currentActor } from "@/lib/events/actor";
import { startManualRun } from "@/lib/runs/start-run";
import type { ColumnKey } from "@/lib/tasks/columns";

const DONE: ColumnKey = "done";
const TODO: ColumnKey = "todo";

/**
 * After the commit that moved `blockerId` into done: when the workspace has `auto_start_unblocked`
 * on, starts the default agent on each of its dependants that is in todo and has no open blocker
 * left, as the person (or agent token's user) who made the move. The server's own moves (a merged
 * pull request) start nothing: there is no user for the agent's token to act as. A dependant that
 * cannot start (already running) is logged and left; the move has succeeded either way.
 */
export async function startUnblockedDependants(db: Db, workspaceId: string, blockerId: string, from: string, to: string) {
  if (from === DONE || to !== DONE) return;
  const userId = currentActor().user_id;
  if (!userId) return;
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
      await startManualRun(db, workspaceId, id, userId);
    } catch (error) {
      console.error(`[taskboard] auto-start of unblocked task ${id}: ${(error as Error).message}`);
    }
  }
}
