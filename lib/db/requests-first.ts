import { databaseKind } from "@/lib/config";

// On the embedded database (PGlite) there is one session, and a transaction holds it until it ends.
// A runner's log batch is the server's busiest write (20 agents printing: eight transactions a
// second, ~20 ms each); a page request whose statement came meanwhile waited for one, often for two
// back to back. So log batches go one at a time and only while the database has nothing else to do:
// a person's page waits for at most the batch in progress, and a batch for at most MAX_WAIT_MS (the
// log's lag goal is 1 s). On PostgreSQL queries run side by side on their own connections and
// batches go at once. docs/PERFORMANCE.md, "Log ingestion" and "The embedded database in a thread
// of its own".
//
// PGlite used to run in the server's own thread, where a batch also held up the sending of answers
// already made, so a request held the batches until its response had gone out (startAnswering).
// It now runs in a thread of its own (lib/db/pglite-worker-client.ts): what a batch can hold up is
// only other statements, and the database itself says when none is under way or waiting.

const MAX_WAIT_MS = 100;

interface State {
  /** The embedded database's idle(): resolves once no statement is under way or waiting, or after `maxMs`. */
  idle?: (maxMs: number) => Promise<void>;
  lane: Promise<void>;
}

// On globalThis: Next bundles each route (the requests and the log route) separately.
const holder = globalThis as typeof globalThis & { __taskboardRequestsFirst?: State };
const state = () => (holder.__taskboardRequestsFirst ??= { lane: Promise.resolve() });

/** Called by lib/db/client.ts when it opens the embedded database. */
export function waitForIdleWith(idle: (maxMs: number) => Promise<void>): void {
  state().idle = idle;
}

/**
 * What a request did to hold background work until its response was sent. Nothing to hold now
 * that the embedded database has a thread of its own (see above): no request is counted, and the
 * caller (lib/api/handler.ts) registers nothing to run after the response.
 */
export function startAnswering(): (() => void) | undefined {
  return undefined;
}

/**
 * Runs `work` (a log batch's transaction) after the one before it, once the embedded database has
 * nothing else under way, for at most MAX_WAIT_MS and not past `waitUntil` (epoch ms): the
 * transactions one runner request is split into share one bound (lib/dispatch/append-runner-log.ts).
 * On PGlite only.
 */
export function afterRequests<T>(work: () => Promise<T>, waitUntil = Date.now() + MAX_WAIT_MS): Promise<T> {
  if (databaseKind() !== "pglite") return work();
  const s = state();
  const turn = s.lane.then(() => quiet(s, waitUntil)).then(work);
  s.lane = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

async function quiet(s: State, waitUntil: number): Promise<void> {
  const longest = Math.min(MAX_WAIT_MS, waitUntil - Date.now());
  if (longest > 0) await s.idle?.(longest);
}
