import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { nextRuns } from "@/lib/schedules/next-run";
import type { scheduleDetailResponse } from "@/lib/schedules/schemas";
import { findSchedule } from "@/lib/schedules/find-schedule";
import { serializeSchedule } from "@/lib/schedules/serialize";

export async function getScheduleDetail(db: Db, workspaceId: string, ref: string): Promise<z.output<typeof scheduleDetailResponse>> {
  const row = await findSchedule(db, workspaceId, ref);
  const upcoming = row.enabled ? nextRuns(row.cron, row.timezone, 3) : [];
  return { ...serializeSchedule(row), next_runs: upcoming.map((date) => date.toISOString()) };
}
