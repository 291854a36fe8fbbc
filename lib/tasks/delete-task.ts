import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";

export async function deleteTask(db: Db, workspaceId: string, taskId: string) {
  await db.$transaction(async (tx) => {
    // Its dependencies go with it (cascade); the tasks on their other side log that in their activity.
    const links = await tx.taskDependency.findMany({
      where: { workspaceId, OR: [{ taskId }, { blockerId: taskId }] },
      select: {
        task: { select: { id: true, number: true, title: true } },
        blocker: { select: { id: true, number: true, title: true } },
      },
    });
    const { count } = await tx.task.deleteMany({ where: { id: taskId, workspaceId } });
    if (count === 0) throw notFound("Task");
    await recordEvents(tx, workspaceId, [
      ...links.map(({ task, blocker }) => ({
        type: "task.dependency_removed" as const,
        taskId: task.id === taskId ? blocker.id : task.id,
        data: { task, blocker },
      })),
      { type: "task.deleted", taskId, data: { id: taskId } },
    ]);
  });
}
