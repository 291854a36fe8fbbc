// One way to write a date and time everywhere on the board ("28 Nov 2026, 14:02" in the reader's
// locale), and one for a time of today ("14:02"). Relative times: relative-time.ts.

const style = { dateStyle: "medium", timeStyle: "short" } as const;
const dateTime = new Intl.DateTimeFormat(undefined, style);
const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

/** In the reader's time zone, or in `timeZone` (a schedule's times are read in its own). */
export function formatDateTime(iso: string | Date, timeZone?: string): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  if (!timeZone) return dateTime.format(date);
  try {
    return new Intl.DateTimeFormat(undefined, { ...style, timeZone }).format(date);
  } catch {
    // A time zone the browser does not know (still being typed in the form).
    return dateTime.format(date);
  }
}

export function formatTime(iso: string | Date): string {
  return time.format(typeof iso === "string" ? new Date(iso) : iso);
}
