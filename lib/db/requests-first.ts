import { databaseKind } from "@/lib/config";

// On the embedded database (PGlite) every query runs in the server's own thread, one at a time, and
// a transaction holds the database until it ends. A runner's log batch is the server's busiest
// write (20 agents printing: eight transactions a second, ~20 ms each); a page request that came
// meanwhile waited for one, often for two back to back. So log batches go one at a time and only
// while no request is being answered: a person's page waits for at most the batch in progress,
// and a batch for at most MAX_WAIT_MS (the log's lag goal is 1 s). On PostgreSQL queries run side
// by side on their own connections and batches go at once. docs/PERFORMANCE.md, "Log ingestion".

const MAX_WAIT_MS = 100;
/** A request not answered by then no longer holds the batches up. */
const HOLD_MAX_MS = 1000;

interface State {
  answering: number;
  quiet: Set<() => void>;
  lane: Promise<void>;
}

// On globalThis: Next bundles each route (the requests and the log route) separately.
const holder = globalThis as typeof globalThis & { __taskboardRequestsFirst?: State };
const state = () => (holder.__taskboardRequestsFirst ??= { answering: 0, quiet: new Set(), lane: Promise.resolve() });

/**
 * Counts a request (not a runner's) as being answered until the returned function is called:
 * background work waits meanwhile. Its caller lets go once the response has gone out, not when the
 * handler returns: Next writes a body over several turns of the event loop, and a log batch that
 * started at the handler's return made the column page's last bytes wait for it (its database work
 * was done in 10 ms, its response ended after 90 ms). A request still held after HOLD_MAX_MS is let go.
 * On PostgreSQL nothing waits for requests (afterRequests), so nothing is counted.
 */
export function startAnswering(): (() => void) | undefined {
  if (databaseKind() !== "pglite") return undefined;
  const s = state();
  s.answering++;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    if (--s.answering === 0) for (const go of s.quiet) go();
  };
  const timer = setTimeout(release, HOLD_MAX_MS);
  return release;
}

/**
 * Runs `work` (a log batch's transaction) after the one before it, once no request is being
 * answered, for at most MAX_WAIT_MS and not past `waitUntil` (epoch ms): the transactions one runner
 * request is split into share one bound (lib/dispatch/append-runner-log.ts). On PGlite only.
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

function quiet(s: State, waitUntil: number): Promise<void> {
  const longest = Math.min(MAX_WAIT_MS, waitUntil - Date.now());
  if (s.answering === 0 || longest <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      s.quiet.delete(go);
      resolve();
    };
    const timer = setTimeout(go, longest);
    s.quiet.add(go);
  });
}
