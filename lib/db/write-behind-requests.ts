import { databaseKind } from "@/lib/config";
import { afterRequests } from "@/lib/db/requests-first";

// Background writes that give way to people's requests, for the busiest one: a runner's log
// request (lib/dispatch/append-runner-log.ts). The caller says what its items are and how heavy each
// is; how they are cut into transactions and when those run is the database layer's business.
//
// On PGlite a transaction holds the one database session, and a page request waits for the one in
// progress: its hold grows with the entries it stores (at 20 printing agents, a runner's request of
// ~500 entries held it ~20 ms, and the board column page's p99 tracked that). So the items go in
// transactions of about PGLITE_WEIGHT_PER_TRANSACTION, one after another, with people's requests
// served between them (docs/PERFORMANCE.md, "Log ingestion, eighth pass"). On PostgreSQL reads
// never wait for these writes, and one transaction costs least.

const PGLITE_WEIGHT_PER_TRANSACTION = 200;
/**
 * How long one call's transactions wait for people's requests in all (each at most
 * lib/db/requests-first.ts's 100 ms). In single bench runs a 100 ms bound left the column page's
 * p99 at 43–53 ms, 250 ms at 32–48, with the log's lag p99 at about half a second (docs/PERFORMANCE.md).
 */
const REQUEST_WAIT_MAX_MS = 250;

/**
 * Writes `items` with `write`, one transaction per call of it: on PostgreSQL one call with them all;
 * on PGlite consecutive groups (inGroups by `weight`), each after people's requests. An item is
 * never split, so `write` may treat each as all-or-nothing. The results come back in the items' order.
 */
export async function writeBehindRequests<T, R>(
  items: T[],
  weight: (item: T) => number,
  write: (group: T[]) => Promise<R[]>,
): Promise<R[]> {
  const groups = databaseKind() === "pglite" ? inGroups(items, weight, PGLITE_WEIGHT_PER_TRANSACTION) : [items];
  const waitUntil = Date.now() + REQUEST_WAIT_MAX_MS;
  const written = await Promise.all(groups.map((group) => afterRequests(() => write(group), waitUntil)));
  return written.flat();
}

/** Consecutive items, a group closed once it weighs `size` or more (a heavier item is a group alone). */
export function inGroups<T>(items: T[], weight: (item: T) => number, size: number): T[][] {
  const groups: T[][] = [];
  let open: T[] = [];
  let total = 0;
  for (const item of items) {
    if (open.length > 0 && total + weight(item) > size) {
      groups.push(open);
      open = [];
      total = 0;
    }
    open.push(item);
    total += weight(item);
  }
  if (open.length > 0) groups.push(open);
  return groups;
}
