import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { nextRun } from "@/lib/schedules/next-run";
import type { updateScheduleBody } from "@/lib/schedules/schemas";
import { requireAgent, requireTask } from "@/lib/schedules/create-schedule";
import { findSchedule } from "@/lib/schedules/find-schedule";
import { serializeSchedule } from "@/lib/schedules/serialize";
import { slugTaken } from "@/lib/schedules/slugs";

export async function updateSchedule(db: Db, workspaceId: string, ref: string, input: z.output<typeof updateScheduleBody>) {
  const current = await findSchedule(db, workspaceId, ref);
  if (input.task_id) await requireTask(db, workspaceId, input.task_id);
  if (input.agent_id) await requireAgent(db, workspaceId, input.agent_id);
  const cron = input.cron ?? current.cron;
  const timezone = input.timezone ?? current.timezone;
  const enabled = input.enabled ?? current.enabled;
  try {
    const row = await db.schedule.update({
      where: { id: current.id },
      data: {
        name: input.name,
        slug: input.slug,
        cron: input.cron,
        timezone: input.timezone,
        enabled: input.enabled,
        defaultInstructions: input.default_instructions,
        taskId: input.task_id,
        agentId: input.agent_id,
        nextRunAt: enabled ? nextRun(cron, timezone) : null,
      },
    });
    return serializeSchedule(row);
  } catch (error) {
    if ((error as { code?: string }).code === "P2025") throw notFound("Schedule");
    throw input.slug ? slugTaken(error, input.slug) : error;
  }
}
