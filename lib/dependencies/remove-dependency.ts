import { getSql, type Db } from "@/lib/db/client";
import { dependencyEvents, findPair, lockDependencies } from "@/lib/dependencies/add-dependency";
import { recordEvents } from "@/lib/events/record-events";
import { loadTask } from "@/lib/tasks/load-tasks";

/** Removes "task_id is blocked by blocker_id"; idempotent like the add (no event when there was none). 404 for tasks not in the workspace. */
export async function removeDependency(db: Db, workspaceId: string, taskId: string, blockerId: string) {
  await db.$transaction(async (tx) => {
    await lockDependencies(tx, workspaceId);
    const { task, blocker } = await findPair(tx, workspaceId, taskId, blockerId);
    const { count } = await tx.taskDependency.deleteMany({ where: { taskId, blockerId, workspaceId } });
    if (count > 0) await recordEvents(tx, workspaceId, dependencyEvents("task.dependency_removed", task, blocker));
  });
  return (await loadTask(await getSql(), workspaceId, taskId))!;
}
