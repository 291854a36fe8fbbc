import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { appendLogEntries } from "@/lib/runs/append-log-entries";
import { runnerExecution } from "@/lib/runners/runner-execution";
import type { logBody } from "@/lib/runners/protocol-schemas";

/** A runner's log batch, stored once however often it is sent (first_seq), in order. */
export async function appendRunnerLog(db: Db, runner: Runner, executionId: string, body: z.output<typeof logBody>) {
  await runnerExecution(db, runner, executionId);
  const entries = body.entries.map((entry) => ({ type: entry.type, update: entry.update, at: entry.at ? new Date(entry.at) : undefined }));
  const { offset, count } = await appendLogEntries(db, executionId, entries, { firstSeq: body.first_seq });
  return { next_seq: offset + count };
}
