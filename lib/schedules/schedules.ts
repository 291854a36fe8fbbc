import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Schedule } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { nextRun, nextRuns } from "@/lib/schedules/next-run";
import type {
  createScheduleBody,
  listSchedulesQuery,
  scheduleDetailResponse,
  scheduleResponse,
  updateScheduleBody,
} from "@/lib/schedules/schemas";

type ScheduleResponse = z.output<typeof scheduleResponse>;

/** `createdBy` is the caller: the schedule's runs act as that user (docs/agents.md). */
export async function createSchedule(db: Db, workspaceId: string, createdBy: string, input: z.output<typeof createScheduleBody>) {
  if (input.task_id) await requireTask(db, workspaceId, input.task_id);
  const data = {
    workspaceId,
    createdBy,
    name: input.name,
    cron: input.cron,
    timezone: input.timezone,
    enabled: input.enabled,
    defaultInstructions: input.default_instructions,
    taskId: input.task_id,
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

/** Oldest first, so a list reads in the order schedules were added. */
export async function listSchedules(db: Db, workspaceId: string, query: z.output<typeof listSchedulesQuery>) {
  const rows = await db.schedule.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: query.limit,
  });
  return rows.map(serializeSchedule);
}

/** `ref` is a schedule id or slug; an id wins, so a slug that happens to equal another schedule's id cannot shadow it. */
export async function findSchedule(db: Db, workspaceId: string, ref: string): Promise<Schedule> {
  const row =
    (await db.schedule.findFirst({ where: { workspaceId, id: ref } })) ??
    (await db.schedule.findFirst({ where: { workspaceId, slug: ref } }));
  if (!row) throw notFound("Schedule");
  return row;
}

export async function getScheduleDetail(db: Db, workspaceId: string, ref: string): Promise<z.output<typeof scheduleDetailResponse>> {
  const row = await findSchedule(db, workspaceId, ref);
  const upcoming = row.enabled ? nextRuns(row.cron, row.timezone, 3) : [];
  return { ...serializeSchedule(row), next_runs: upcoming.map((date) => date.toISOString()) };
}

export async function updateSchedule(db: Db, workspaceId: string, ref: string, input: z.output<typeof updateScheduleBody>) {
  const current = await findSchedule(db, workspaceId, ref);
  if (input.task_id) await requireTask(db, workspaceId, input.task_id);
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
        nextRunAt: enabled ? nextRun(cron, timezone) : null,
      },
    });
    return serializeSchedule(row);
  } catch (error) {
    if ((error as { code?: string }).code === "P2025") throw notFound("Schedule");
    throw input.slug ? slugTaken(error, input.slug) : error;
  }
}

export async function deleteSchedule(db: Db, workspaceId: string, ref: string) {
  const row = await findSchedule(db, workspaceId, ref);
  const { count } = await db.schedule.deleteMany({ where: { id: row.id, workspaceId } });
  if (count === 0) throw notFound("Schedule");
}

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
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "schedule";
}

function freeSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function requireTask(db: Db, workspaceId: string, taskId: string) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
}

function slugTaken(error: unknown, slug: string): unknown {
  return (error as { code?: string }).code === "P2002" ? conflict(`A schedule with slug '${slug}' already exists`) : error;
}
