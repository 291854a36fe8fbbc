import type { NotificationSettingsBody } from "@/lib/notifications/schemas";

// Quiet hours are local wall-clock times in the person's time zone; a range may span midnight
// (22:00–07:00). Only the channels that interrupt (push, email, Slack) wait for them to end.

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

/** The local time of day at `at` in `timeZone`, in minutes since midnight. */
function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}

/** When a message may go out: `at` itself, or the end of the quiet hours `at` falls in. */
export function quietUntil(at: Date, settings: Pick<NotificationSettingsBody, "quiet_hours" | "time_zone">): Date {
  if (!settings.quiet_hours) return at;
  const now = localMinutes(at, settings.time_zone);
  const start = minutesOf(settings.quiet_hours.start);
  const end = minutesOf(settings.quiet_hours.end);
  const quiet = start < end ? now >= start && now < end : now >= start || now < end;
  if (!quiet) return at;
  const wait = (end - now + 24 * 60) % (24 * 60);
  // From the start of the current minute, so the message goes out as the quiet hours' last minute ends.
  return new Date(at.getTime() - (at.getTime() % 60_000) + wait * 60_000);
}
