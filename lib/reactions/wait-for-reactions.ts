import type { Db } from "@/lib/db/client";
import type { Recorded } from "@/lib/events/recorded-events";
import { nudgeReactions, onReactionProgress } from "@/lib/reactions/progress";
import { READ_COLUMNS, REACTION_READS, READS_EVENT_SQL, REACTIONS } from "@/lib/reactions/reactions";

// A request sent with `Prefer: wait=reactions` (lib/api/after-reactions.ts) answers once the
// reactions to its change have run (a dependant started, the task moved), as when they were called
// inline; at most WAIT_MS, since a reaction may be slow, failing (it waits for its retry: no point
// holding the answer) or running on another instance. It waits only for the events a reaction
// reads, its `match` included: a rename is a task.updated, but no reaction has anything to do with
// it. The request nudges this process's worker, so the wait is usually a few milliseconds.

const WAIT_MS = 2_000;
// Polls are the fallback, for what this process's worker does not say (another instance's worker
// took the cursor, say), so they come late and back off: with fifty requests waiting, polls from
// 50 ms were most of the statements the server ran.
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 1_000;

/** `timing` is for tests: a first poll longer than the wait shows what the worker's reports do alone. */
export async function waitForReactions(
  db: Db,
  recorded: Map<string, Recorded>,
  timing = { waitMs: WAIT_MS, firstPollMs: FIRST_POLL_MS },
): Promise<void> {
  const deadline = Date.now() + timing.waitMs;
  const waits = [...recorded].flatMap(([workspaceId, { lastId, types }]) => {
    const names = REACTIONS.filter((reaction) => reaction.types.some((type) => types.has(type))).map((reaction) => reaction.name);
    return names.length > 0 ? [{ workspaceId, lastId, names }] : [];
  });
  // No reaction reads these events (a runner's log batch, say): nothing to nudge or wait for. A
  // nudge for every log batch sent the worker chasing the head of the log through events it skips.
  if (waits.length === 0) return;
  nudgeReactions();
  for (const { workspaceId, lastId, names } of waits) await waitFor(db, workspaceId, lastId, names, deadline, timing.firstPollMs);
}

async function waitFor(db: Db, workspaceId: string, lastId: bigint, names: string[], deadline: number, firstPollMs: number) {
  // Reactions seen moving past lastId here: done, whatever a query begun before the move says.
  const passed = new Set<string>();
  let wake: () => void = () => {};
  const unsubscribe = onReactionProgress(workspaceId, ({ reaction, cursor }) => {
    if (cursor !== null && cursor < lastId) return;
    passed.add(reaction);
    wake();
  });
  try {
    let behind = await pending(db, workspaceId, lastId, names);
    const waiting = () => behind.filter((name) => !passed.has(name));
    let pollMs = firstPollMs;
    while (waiting().length > 0 && Date.now() < deadline) {
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.min(pollMs, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      // What this process's worker reported needs no query: the set above says it all.
      if (woken) continue;
      pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
      behind = await pending(db, workspaceId, lastId, waiting());
    }
  } finally {
    unsubscribe();
  }
}

/**
 * Those of the reactions that have yet to pass an event they read up to `lastId` (or the head, if
 * that id never committed) and are not waiting for a retry. The events after its cursor are few:
 * the worker moves a cursor past the events its reaction does not read at every wake-up.
 */
async function pending(db: Db, workspaceId: string, lastId: bigint, names: string[]): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT r.name FROM json_to_recordset($2::json) AS r(${READ_COLUMNS})
     CROSS JOIN (SELECT COALESCE((SELECT last_id FROM workspace_event_heads WHERE workspace_id = $1), 0) AS head) h
     LEFT JOIN reaction_cursors c ON c.reaction = r.name AND c.workspace_id = $1
     WHERE r.name = ANY($4::text[]) AND COALESCE(c.attempts, 0) = 0
       AND EXISTS (SELECT 1 FROM workspace_events x
                   WHERE x.workspace_id = $1 AND x.id > COALESCE(c.cursor, 0) AND x.id <= LEAST($3::bigint, h.head) AND ${READS_EVENT_SQL})`,
    workspaceId,
    REACTION_READS,
    lastId.toString(),
    names,
  );
  return rows.map((row) => row.name);
}
