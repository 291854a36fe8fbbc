import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { nextRun } from "@/lib/schedules/next-run";
import type { createScheduleBody } from "@/lib/schedules/schemas";
import { serializeSchedule } from "@/lib/schedules/serialize";
import { slugify, freeSlug, slugTaken } from "@/lib/schedules/slugs";

/** `createdBy` is the caller: the schedule's runs act as that user (docs/agents.md). */
export async function createSchedule(db: Db, workspaceId: string, createdBy: string, input: z.output<typeof createScheduleBody>) {
  if (input.task_id) await requireTask(db, workspaceId, input.task_id);
  if (input.agent_id) await requireAgent(db, workspaceId, input.agent_id);
  const data = {
    workspaceId,
    createdBy,
    name: input.name,
    cron: input.cron,
    timezone: input.timezone,
    enabled: input.enabled,
    defaultInstructions: input.default_instructions,
    taskId: input.task_id,
    agentId: input.agent_id,
    nextRunAt: input.enabled ? nextRun(input.cron, input.timezone) : null,
  };
  if (input.slug) {
    try {
      return serializeSchedule(await db.schedule.create({ data: { ...data, slug: input.slug } }));
    } catch (error) {
      throw slugTaken(error, input.slug);
    }
  }
  // A derived slug is made unique: name, name-2, name-3 … retried if a concurrent create takes it.
  const base = slugify(input.name);
  for (let attempt = 0; ; attempt++) {
    const taken = await db.schedule.findMany({
      where: { workspaceId, slug: { startsWith: base } },
      select: { slug: true },
    });
    const slug = freeSlug(base, new Set(taken.map((row) => row.slug)));
    try {
      return serializeSchedule(await db.schedule.create({ data: { ...data, slug } }));
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002" || attempt >= 4) throw error;
    }
  }
}

export async function requireTask(db: Db, workspaceId: string, taskId: string) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
}

export async function requireAgent(db: Db, workspaceId: string, agentId: string) {
  const agent = await db.agentProfile.findFirst({ where: { id: agentId, workspaceId }, select: { id: true } });
  if (!agent) throw notFound("Agent");
}
