import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { recordEvents } from "@/lib/events/record-events";

export async function deleteTask(db: Db, workspaceId: string, taskId: string) {
  await db.$transaction(async (tx) => {
    const { count } = await tx.task.deleteMany({ where: { id: taskId, workspaceId } });
    if (count === 0) throw notFound("Task");
    await recordEvents(tx, workspaceId, [{ type: "task.deleted", taskId, data: { id: taskId } }]);
  });
}
