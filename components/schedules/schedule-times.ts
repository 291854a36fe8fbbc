import { Cron } from "croner";

/** The next `count` times a cron expression fires in a time zone (throws on an invalid one). */
export function nextTimes(cron: string, timezone: string, count: number): Date[] {
  return new Cron(cron, { timezone, paused: true }).nextRuns(count);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** The browser's own time zone, for a new schedule: people think in their local time, not UTC. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
