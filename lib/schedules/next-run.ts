import { Cron } from "croner";

// Cron parsing and next-run times come from croner (maintained, time-zone aware, no dependencies).

/** The next `count` run times strictly after `from`, in the schedule's IANA time zone. */
export function nextRuns(cron: string, timezone: string, count = 1, from = new Date()): Date[] {
  const job = new Cron(cron, { timezone, paused: true });
  return job.nextRuns(count, from);
}

export function nextRun(cron: string, timezone: string, from = new Date()): Date | null {
  return nextRuns(cron, timezone, 1, from)[0] ?? null;
}

/** Why a cron expression is not accepted, or null when it is. */
export function cronProblem(cron: string): string | null {
  try {
    new Cron(cron, { paused: true });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}
