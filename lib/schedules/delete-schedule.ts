import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { findSchedule } from "@/lib/schedules/find-schedule";

export async function deleteSchedule(db: Db, workspaceId: string, ref: string) {
  const row = await findSchedule(db, workspaceId, ref);
  const { count } = await db.schedule.deleteMany({ where: { id: row.id, workspaceId } });
  if (count === 0) throw notFound("Schedule");
}
