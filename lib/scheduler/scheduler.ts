import type { Schedule } from "@/lib/generated/prisma/client";
import { HttpError } from "@/lib/api/errors";
import { recordEventsOfWorkspaces } from "@/lib/events/record-events";
import { nextRun } from "@/lib/schedules/next-run";
import { taskInstructions } from "@/lib/runs/instructions";
import { createExecution, startedEvents, type Tx } from "@/lib/runs/start-execution";
import { wakeRunner } from "@/lib/runner/wake";
import { schedulerIntervalMs } from "@/lib/runner/config";
import type { Db } from "@/lib/db/client";
import { endOfColumn, lockColumn } from "@/lib/tasks/positions";

// Fires due schedules. Every instance ticks; each due schedule row is claimed with
// FOR UPDATE SKIP LOCKED in the same transaction that moves next_run_at on and creates the run, so
// an occurrence fires exactly once however many instances share the database. next_run_at is
// computed from now, not from the missed time, so after downtime a schedule fires once, not once
// per missed period.

const BATCH = 20;

export function startScheduler(db: Db) {
  const tick = () => void fireDueSchedules(db).catch((error) => console.error(`[taskboard] scheduler: ${(error as Error).message}`));
  const interval = setInterval(tick, schedulerIntervalMs());
  interval.unref();
  tick();
  return () => clearInterval(interval);
}

type Fired = {
  schedule: Schedule;
  created: Awaited<ReturnType<typeof createExecution>> | null;
  newTaskId: string | null;
  skipped?: string;
};

export async function fireDueSchedules(db: Db): Promise<number> {
  await fillMissingNextRuns(db);
  let total = 0;
  for (;;) {
    const fired = await db.$transaction(async (tx) => {
      const due = await tx.$queryRaw<{ id: string; db_now: Date }[]>`
        SELECT id, now() AS db_now FROM schedules
        WHERE enabled AND next_run_at IS NOT NULL AND next_run_at <= now()
        ORDER BY next_run_at LIMIT ${BATCH}::int FOR UPDATE SKIP LOCKED`;
      const out: Fired[] = [];
      for (const { id, db_now } of due) out.push(await fire(tx, id, new Date(db_now)));
      // Last in the transaction (lib/events/record-events.ts).
      await recordEventsOfWorkspaces(
        tx,
        out.flatMap(({ schedule, created, newTaskId }) => [
          ...(newTaskId ? [{ workspaceId: schedule.workspaceId, type: "task.created" as const, taskId: newTaskId }] : []),
          ...(created ? startedEvents(created).map((event) => ({ ...event, workspaceId: schedule.workspaceId })) : []),
        ]),
      );
      return out;
    });
    if (fired.some(({ created }) => created)) wakeRunner();
    for (const { schedule, skipped } of fired) {
      console.log(`[taskboard] schedule ${schedule.slug} (${schedule.id}) fired${skipped ? `; skipped: ${skipped}` : ""}`);
    }
    total += fired.length;
    if (fired.length < BATCH) return total;
  }
}

async function fire(tx: Tx, scheduleId: string, now: Date): Promise<Fired> {
  const schedule = await tx.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  await tx.schedule.update({
    where: { id: schedule.id },
    data: { nextRunAt: safeNextRun(schedule, now), lastTriggeredAt: now },
  });
  let task = schedule.taskId ? await tx.task.findUnique({ where: { id: schedule.taskId } }) : null;
  let newTaskId: string | null = null;
  if (!task) {
    newTaskId = await createScheduleTask(tx, schedule);
    task = await tx.task.findUniqueOrThrow({ where: { id: newTaskId } });
  }
  try {
    const execution = await createExecution(tx, {
      workspaceId: schedule.workspaceId,
      taskId: task.id,
      trigger: "schedule",
      instructions: schedule.defaultInstructions.trim() || taskInstructions(task),
    });
    return { schedule, created: execution, newTaskId };
  } catch (error) {
    // The occurrence is spent either way: a task still busy from the last one is not run twice.
    if (error instanceof HttpError && error.status === 409)
      return { schedule, created: null, newTaskId, skipped: "its task is still running" };
    throw error;
  }
}

/** A schedule without a task gets a fresh one in `todo` for each occurrence, titled after it. */
async function createScheduleTask(tx: Tx, schedule: Schedule) {
  await lockColumn(tx, schedule.workspaceId, "todo");
  const task = await tx.task.create({
    data: {
      workspaceId: schedule.workspaceId,
      title: schedule.name,
      description: schedule.defaultInstructions,
      status: "todo",
      position: await endOfColumn(tx, schedule.workspaceId, "todo"),
    },
  });
  return task.id;
}

/** Enabled schedules written without a next run time (e.g. by hand) get one, so they fire at all. */
async function fillMissingNextRuns(db: Db) {
  const rows = await db.schedule.findMany({ where: { enabled: true, nextRunAt: null }, take: 100 });
  for (const row of rows) {
    const next = safeNextRun(row, new Date());
    if (next) await db.schedule.updateMany({ where: { id: row.id, nextRunAt: null }, data: { nextRunAt: next } });
  }
}

function safeNextRun(schedule: Schedule, now: Date): Date | null {
  try {
    return nextRun(schedule.cron, schedule.timezone, now);
  } catch (error) {
    console.error(`[taskboard] schedule ${schedule.id}: cannot compute the next run of "${schedule.cron}": ${(error as Error).message}`);
    return null;
  }
}
