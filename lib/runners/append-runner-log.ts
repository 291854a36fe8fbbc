import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { databaseKind } from "@/lib/config";
import { afterRequests } from "@/lib/db/requests-first";
import { appendLogBatches, type LogBatch } from "@/lib/runs/append-log-entries";
import { conflict } from "@/lib/platform/errors";
import type { logBody, logResponse } from "@/lib/runner-protocol";

/**
 * On PGlite a transaction holds the one database session, and a page request waits for the one in
 * progress: its hold grows with the entries it stores (at 20 printing agents, a runner's request of
 * ~500 entries held it ~20 ms, and the board column page's p99 tracked that). So a request's runs
 * go in transactions of about this many entries, one after another, with people's requests served
 * between them (docs/PERFORMANCE.md, "Log ingestion, eighth pass"). On PostgreSQL reads never wait
 * for the log's writes, and one transaction costs least.
 */
const PGLITE_ENTRIES_PER_TRANSACTION = 200;
/**
 * How long a request's transactions wait for people's requests in all (each at most
 * lib/db/requests-first.ts's 100 ms). In single bench runs a 100 ms bound left the column page's
 * p99 at 43–53 ms, 250 ms at 32–48, with the log's lag p99 at about half a second (docs/PERFORMANCE.md).
 */
const REQUEST_WAIT_MAX_MS = 250;

/**
 * A runner's log request: each run's batch stored once however often it is sent (first_seq), in
 * order. A batch for a run that has ended is refused in its result (409) and the others are stored;
 * a request whose runs have all ended answers 409.
 */
export async function appendRunnerLog(db: Db, runner: Runner, body: z.output<typeof logBody>): Promise<z.input<typeof logResponse>> {
  const batches = body.batches.map((batch) => ({
    executionId: batch.execution_id,
    firstSeq: batch.first_seq,
    entries: batch.entries.map((entry) => ({ type: entry.type, update: entry.update, at: entry.at ? new Date(entry.at) : undefined })),
  }));
  const groups = databaseKind() === "pglite" ? inGroups(batches, PGLITE_ENTRIES_PER_TRANSACTION) : [batches];
  // Each group is all-or-nothing per run (first_seq makes a resend after a failed group store
  // only what is missing), so a request may be split between runs, never inside one run's batch.
  const waitUntil = Date.now() + REQUEST_WAIT_MAX_MS;
  const stored = await Promise.all(
    groups.map((group) => afterRequests(() => appendLogBatches(db, group, { runnerId: runner.id }), waitUntil)),
  );
  const results = stored.flat();
  // Nothing in the request was for a run still going: the request itself is refused, in words.
  const refused = results.flatMap((result) => ("error" in result && result.ended ? [result.error.message] : []));
  if (refused.length === results.length) {
    throw conflict(
      refused.length === 1 ? refused[0] : `All ${refused.length} runs in the request have ended: their logs take no more entries`,
    );
  }
  return {
    results: results.map((result) =>
      "error" in result
        ? { execution_id: result.executionId, next_seq: null, error: { status: result.error.status, detail: result.error.message } }
        : { execution_id: result.executionId, next_seq: result.offset + result.count, error: null },
    ),
  };
}

/** Consecutive runs' batches, a group closed once it holds `size` entries or more (a bigger batch is a group alone). */
export function inGroups(batches: LogBatch[], size: number): LogBatch[][] {
  const groups: LogBatch[][] = [];
  let open: LogBatch[] = [];
  let entries = 0;
  for (const batch of batches) {
    if (open.length > 0 && entries + batch.entries.length > size) {
      groups.push(open);
      open = [];
      entries = 0;
    }
    open.push(batch);
    entries += batch.entries.length;
  }
  if (open.length > 0) groups.push(open);
  return groups;
}
