import type { Db } from "@/lib/db/client";
import type { Recorded } from "@/lib/events/recorded-events";
import { nudgeReactions, onReactionProgress } from "@/lib/reactions/progress";
import { REACTIONS } from "@/lib/reactions/reactions";

// A request whose change has reactions answers once they have run (a dependant started, the task
// moved), as when they were called inline; at most WAIT_MS, since a reaction may be slow, failing
// (it waits for its retry: no point holding the answer) or running on another instance. The
// reaction worker wakes on the commit's notification, so this is usually a few milliseconds.

const WAIT_MS = 2_000;
const POLL_MS = 50;

export async function waitForReactions(db: Db, recorded: Map<string, Recorded>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const waits = [...recorded].flatMap(([workspaceId, { lastId, types }]) => {
    const names = REACTIONS.filter((reaction) => reaction.types.some((type) => types.has(type))).map((reaction) => reaction.name);
    return names.length > 0 ? [{ workspaceId, lastId, names }] : [];
  });
  // No reaction reads these events (a runner's log batch, say): nothing to nudge or wait for. A
  // nudge for every log batch sent the worker chasing the head of the log through events it skips.
  if (waits.length === 0) return;
  nudgeReactions();
  for (const { workspaceId, lastId, names } of waits) await waitFor(db, workspaceId, lastId, names, deadline);
}

async function waitFor(db: Db, workspaceId: string, lastId: bigint, names: string[], deadline: number) {
  let wake: () => void = () => {};
  const unsubscribe = onReactionProgress(workspaceId, () => wake());
  try {
    while ((await pending(db, workspaceId, lastId, names)) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}

/** Whether one of the reactions has yet to read up to `lastId` (or the head, if that id never committed) and is not waiting for a retry. */
async function pending(db: Db, workspaceId: string, lastId: bigint, names: string[]): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ behind: boolean }[]>(
    `SELECT EXISTS (
       SELECT 1 FROM unnest($2::text[]) AS r(name)
       CROSS JOIN (SELECT COALESCE((SELECT last_id FROM workspace_event_heads WHERE workspace_id = $1), 0) AS head) h
       LEFT JOIN reaction_cursors c ON c.reaction = r.name AND c.workspace_id = $1
       WHERE COALESCE(c.cursor, 0) < LEAST($3::bigint, h.head) AND COALESCE(c.attempts, 0) = 0
     ) AS behind`,
    workspaceId,
    names,
    lastId.toString(),
  );
  return rows[0]?.behind ?? false;
}
