import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { listSchedulesQuery } from "@/lib/schedules/schemas";
import { serializeSchedule } from "@/lib/schedules/serialize";

/** Oldest first, so a list reads in the order schedules were added. */
export async function listSchedules(db: Db, workspaceId: string, query: z.output<typeof listSchedulesQuery>) {
  const rows = await db.schedule.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: query.limit,
  });
  return rows.map(serializeSchedule);
}
