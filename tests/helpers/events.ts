import type { Db } from "@/lib/db/client";
import { recordEvents, type NewEvent } from "@/lib/events/record-events";

/** Records events in a workspace's log in a transaction of their own, as a change would. */
export function recordIn(db: Db, workspaceId: string, events: NewEvent[]) {
  return db.$transaction((tx) => recordEvents(tx, workspaceId, events));
}

/** `count` stream-only events: a run's live log growing. */
export function liveLogEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({ type: "execution.log", taskId: null, data: { id: "e", line_count: i } }));
}
