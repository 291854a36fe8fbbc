import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { writeBehindRequests } from "@/lib/db/write-behind-requests";
import { appendLogBatches } from "@/lib/runs/append-log-entries";
import { conflict } from "@/lib/platform/errors";
import type { logBody, logResponse } from "@/lib/runner-protocol";

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
  // A background write that gives way to people's requests: the database layer may store the runs'
  // batches in several transactions, never one run's batch split (first_seq makes a resend after a
  // failed transaction store only what is missing).
  const results = await writeBehindRequests(
    batches,
    (batch) => batch.entries.length,
    (group) => appendLogBatches(db, group, { runnerId: runner.id }),
  );
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
