import type { Schedule } from "@/lib/generated/prisma/client";
import { HttpError } from "@/lib/platform/errors";
import { BlockedError } from "@/lib/dependencies/task-refs";
import type { Db, Tx } from "@/lib/db/client";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { schedulerIntervalMs } from "@/lib/platform/runner-config";
import { fireSchedule, type Fired } from "@/lib/schedules/fire-schedule";
import { nextRun } from "@/lib/schedules/next-run";
import { sweepWorktrees } from "@/lib/git/worktree/sweep-worktrees";

// Fires due schedules. Every instance ticks; each due schedule is claimed with FOR UPDATE SKIP
// LOCKED in its own transaction, which moves next_run_at on and fires the occurrence, so an
// occurrence fires exactly once however many instances share the database, and one schedule that
// fails cannot hold back the others. next_run_at is computed from now, not from the missed time,
// so after downtime a schedule fires once, not once per missed period.

export function startScheduler(db: Db) {
  const tick = () => {
    void fireDueSchedules(db).catch((error) => console.error(`[taskboard] scheduler: ${(error as Error).message}`));
    // Bounded per tick (lib/git/worktree/sweep-worktrees.ts).
    void sweepWorktrees(db).catch((error) => console.error(`[taskboard] worktree sweep: ${(error as Error).message}`));
  };
  const interval = setInterval(tick, schedulerIntervalMs());
  interval.unref();
  tick();
  return () => clearInterval(interval);
}

/** A new task waits for its column's lock, like any create (lib/tasks/positions.ts). */
const TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

type Occurrence = { schedule: Schedule; fired: Fired | null; error: string | null };

/** Fires every schedule due now, each once; returns how many occurrences were handled. */
export async function fireDueSchedules(db: Db): Promise<number> {
  await fillMissingNextRuns(db);
  const seen: string[] = [];
  for (;;) {
    const claim: { current?: { id: string; nextRunAt: Date } } = {};
    let occurrence: Occurrence | null;
    try {
      occurrence = await db.$transaction(async (tx) => {
        const [due] = await tx.$queryRaw<{ id: string; db_now: Date }[]>`
          SELECT id, now() AS db_now FROM schedules
          WHERE enabled AND next_run_at IS NOT NULL AND next_run_at <= now() AND NOT (id = ANY(${seen}::text[]))
          ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
        if (!due) return null;
        seen.push(due.id);
        const schedule = await tx.schedule.findUniqueOrThrow({ where: { id: due.id } });
        claim.current = { id: schedule.id, nextRunAt: schedule.nextRunAt! };
        return fireOccurrence(tx, schedule, new Date(due.db_now));
      }, TRANSACTION);
    } catch (error) {
      // Its transaction is gone: the failure is recorded on the schedule, whose time still moves on.
      if (!claim.current) throw error;
      await recordFailure(db, claim.current, `failed: ${(error as Error).message}`);
      continue;
    }
    if (!occurrence) return seen.length;
    const { schedule, error } = occurrence;
    console.log(`[taskboard] schedule ${schedule.slug} (${schedule.id}) fired${error ? `; ${error}` : ""}`);
  }
}

/** Moves next_run_at on, then runs the occurrence as the schedule's creator, or records why it cannot. */
async function fireOccurrence(tx: Tx, schedule: Schedule, now: Date): Promise<Occurrence> {
  await tx.schedule.update({ where: { id: schedule.id }, data: { nextRunAt: safeNextRun(schedule, now), lastTriggeredAt: now } });
  const refusal = await creatorProblem(tx, schedule);
  if (refusal) {
    await tx.schedule.update({ where: { id: schedule.id }, data: { lastError: refusal } });
    return { schedule, fired: null, error: refusal };
  }
  try {
    const fired = await fireSchedule(tx, schedule, { trigger: RUN_TRIGGER.schedule, actAs: schedule.createdBy!, now });
    return { schedule, fired, error: null };
  } catch (error) {
    // The occurrence is spent either way: a task still busy from the last one is not run twice.
    if (!(error instanceof HttpError && error.status === 409)) throw error;
    const skipped = error instanceof BlockedError ? `skipped: ${error.message}` : "skipped: its task was still running";
    await tx.schedule.update({ where: { id: schedule.id }, data: { lastError: skipped } });
    return { schedule, fired: null, error: skipped };
  }
}

/** Scheduled runs act as the user who created the schedule, only while that user may still act in the workspace. */
async function creatorProblem(tx: Tx, schedule: Schedule): Promise<string | null> {
  if (!schedule.createdBy) return "not run: the user who created this schedule no longer exists";
  const creator = await tx.user.findUnique({
    where: { id: schedule.createdBy },
    select: { username: true, disabled: true, memberships: { where: { workspaceId: schedule.workspaceId }, select: { role: true } } },
  });
  if (!creator) return "not run: the user who created this schedule no longer exists";
  if (creator.disabled) return `not run: ${creator.username}, who created this schedule, is disabled`;
  if (creator.memberships.length === 0)
    return `not run: ${creator.username}, who created this schedule, is no longer a member of this workspace`;
  return null;
}

/** After a failed transaction: the error on the schedule and its next time, unless another instance has handled it since. */
async function recordFailure(db: Db, claimed: { id: string; nextRunAt: Date }, message: string) {
  console.error(`[taskboard] schedule ${claimed.id}: ${message}`);
  const schedule = await db.schedule.findUnique({ where: { id: claimed.id } });
  if (!schedule) return;
  const now = new Date();
  await db.schedule.updateMany({
    where: { id: claimed.id, nextRunAt: claimed.nextRunAt },
    data: { nextRunAt: safeNextRun(schedule, now), lastTriggeredAt: now, lastError: message.slice(0, 2000) },
  });
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
