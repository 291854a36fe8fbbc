import type { Db } from "@/lib/db/client";
import type { Schedule } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";

/** `ref` is a schedule id or slug; an id wins, so a slug that happens to equal another schedule's id cannot shadow it. */
export async function findSchedule(db: Db, workspaceId: string, ref: string): Promise<Schedule> {
  const row =
    (await db.schedule.findFirst({ where: { workspaceId, id: ref } })) ??
    (await db.schedule.findFirst({ where: { workspaceId, slug: ref } }));
  if (!row) throw notFound("Schedule");
  return row;
}
