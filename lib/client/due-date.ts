// A due date as people pick it (a day, in their own time zone) and as the API keeps it (a moment):
// the day's last millisecond, so a task due "3 Nov" is overdue from 4 Nov on, wherever one is.

/** The moment for a date input's YYYY-MM-DD (null for ""). */
export function dueAtFromDate(date: string): string | null {
  if (!date) return null;
  const [year, month, day] = date.split("-").map(Number);
  return new Date(year, month - 1, day, 23, 59, 59, 999).toISOString();
}

/** A date input's value for a due moment: its day in the local time zone. */
export function dateInputValue(dueAt: string | null): string {
  if (!dueAt) return "";
  const due = new Date(dueAt);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}`;
}
