import { HttpError } from "@/lib/platform/errors";
import { eventStreamsPerUser } from "@/lib/config";

// Each open event stream holds a timer, a wake-up listener and, on PostgreSQL, a share of the pool
// at every read: a user (or a leaked key in a loop) opening streams without end would exhaust the
// server. So a user holds at most EVENT_STREAMS_PER_USER (20) at once, across every stream route
// and every credential of theirs (an agent token counts for the user it acts for). Counted per
// instance: with N instances behind a balancer a user may hold up to N × 20 (docs/events.md).

const state = globalThis as typeof globalThis & { __taskboardStreamSlots?: Map<string, number> };

function open(): Map<string, number> {
  state.__taskboardStreamSlots ??= new Map();
  return state.__taskboardStreamSlots;
}

/** Takes a slot for `userId` or throws 429 in words; the returned function gives it back (once). */
export function takeStreamSlot(userId: string): () => void {
  const limit = eventStreamsPerUser();
  const held = open().get(userId) ?? 0;
  if (held >= limit) {
    throw new HttpError(
      429,
      `Too many open event streams: a user may have at most ${limit} open at once. Close one (another tab, window or script) and try again.`,
      { "Retry-After": "5" },
    );
  }
  open().set(userId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (open().get(userId) ?? 1) - 1;
    if (left > 0) open().set(userId, left);
    else open().delete(userId);
  };
}
