import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { publishEvent } from "@/lib/events/publish";

export async function deleteTask(db: Db, workspaceId: string, taskId: string) {
  const { count } = await db.task.deleteMany({ where: { id: taskId, workspaceId } });
  if (count === 0) throw notFound("Task");
  publishEvent(workspaceId, "task.deleted", { id: taskId });
}
