import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { afterRequests } from "@/lib/db/requests-first";
import { appendLogBatches } from "@/lib/runs/append-log-entries";
import type { logBody, logResponse } from "@/lib/runners/protocol-schemas";

/** A runner's log request: each run's batch stored once however often it is sent (first_seq), in order. */
export async function appendRunnerLog(db: Db, runner: Runner, body: z.output<typeof logBody>): Promise<z.input<typeof logResponse>> {
  const batches = body.batches.map((batch) => ({
    executionId: batch.execution_id,
    firstSeq: batch.first_seq,
    entries: batch.entries.map((entry) => ({ type: entry.type, update: entry.update, at: entry.at ? new Date(entry.at) : undefined })),
  }));
  const results = await afterRequests(() => appendLogBatches(db, batches, { runnerId: runner.id }));
  return {
    results: results.map((result) =>
      "error" in result
        ? { execution_id: result.executionId, next_seq: null, error: { status: result.error.status, detail: result.error.message } }
        : { execution_id: result.executionId, next_seq: result.offset + result.count, error: null },
    ),
  };
}
