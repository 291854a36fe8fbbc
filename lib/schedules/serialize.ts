import type { z } from "zod";
import type { Schedule } from "@/lib/generated/prisma/client";
import type { scheduleResponse } from "@/lib/schedules/schemas";

type ScheduleResponse = z.output<typeof scheduleResponse>;

export function serializeSchedule(row: Schedule): ScheduleResponse {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    slug: row.slug,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    default_instructions: row.defaultInstructions,
    task_id: row.taskId,
    agent_id: row.agentId,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
