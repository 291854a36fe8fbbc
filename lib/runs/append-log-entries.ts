import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";
import { executionEvent } from "@/lib/runs/finish-execution";
import type { LogEntry } from "@/lib/runs/schemas";
import { oversizedUpdate } from "@/lib/runs/oversized-entry";

// The one writer of an execution's structured log (execution_log_entries). The runner calls it for
// each batch of ACP updates and output lines; the worktree steps call it for their `git` entries.
// Numbers come from the execution row (line_count, incremented in the same transaction under its
// row lock), so several writers of one execution never share or skip a seq.

export interface NewLogEntry {
  type: string;
  update: Record<string, unknown>;
  /** When it happened; now by default. */
  at?: Date;
}

/** An entry's payload is kept up to this size (JSON characters); a bigger one is stored as a stub saying so. */
export const LOG_ENTRY_MAX_CHARS = 256 * 1024;
/** Batches up to this many entries ride along in the execution.updated event; bigger ones are fetched. */
const EVENT_ENTRIES_MAX = 100;
const EVENT_CHARS_MAX = 64 * 1024;

/**
 * Appends entries to the execution's log in one transaction, with the execution.updated event
 * (carrying the entries when the batch is small) as its last statement. Returns where they went:
 * the first entry's seq and how many. With `firstSeq` (a runner's batch, which it may send again
 * after a lost answer) entries already stored are skipped, so each is stored exactly once and in
 * order; a batch that would leave a gap is refused (409).
 */
export async function appendLogEntries(
  db: Db,
  executionId: string,
  entries: NewLogEntry[],
  options: { firstSeq?: number } = {},
): Promise<{ offset: number; count: number }> {
  if (entries.length === 0) return { offset: 0, count: 0 };
  return db.$transaction(async (tx) => {
    let fresh = entries;
    if (options.firstSeq !== undefined) {
      const [row] = await tx.$queryRaw<{ line_count: number }[]>`SELECT line_count FROM executions WHERE id = ${executionId} FOR UPDATE`;
      if (!row) throw notFound("Execution");
      const skip = row.line_count - options.firstSeq;
      if (skip < 0) throw conflict(`The log holds ${row.line_count} entries: the next batch must start at seq ${row.line_count}`);
      fresh = entries.slice(skip);
      if (fresh.length === 0) return { offset: row.line_count, count: 0 };
    }
    const rows = fresh.map((entry) => ({ type: entry.type, json: storable(entry.update), at: (entry.at ?? new Date()).toISOString() }));
    // The batch as one JSON text, built from each payload's JSON without parsing it again.
    const batch = `[${rows.map((row) => `{"at":${JSON.stringify(row.at)},"type":${JSON.stringify(row.type)},"update":${row.json}}`).join(",")}]`;
    const execution = await tx.execution.update({
      where: { id: executionId },
      data: { lineCount: { increment: rows.length }, lastActivityAt: new Date(rows[rows.length - 1].at) },
    });
    const first = execution.lineCount - rows.length;
    // One parameter however many entries (a fast agent's batch holds tens of thousands): the array
    // is unpacked by the database, so no statement reaches the bind-parameter limit.
    await tx.$executeRaw`
      INSERT INTO "execution_log_entries" ("execution_id", "seq", "at", "type", "update")
      SELECT ${executionId}, ${first}::int + (t.n - 1)::int, (t.e->>'at')::timestamptz, t.e->>'type', t.e->'update'
      FROM jsonb_array_elements(${batch}::jsonb) WITH ORDINALITY AS t(e, n)`;
    const small = rows.length <= EVENT_ENTRIES_MAX && batch.length <= EVENT_CHARS_MAX;
    const log = small
      ? {
          offset: first,
          entries: rows.map((row, index): LogEntry => ({ seq: first + index, at: row.at, type: row.type, update: JSON.parse(row.json) })),
        }
      : undefined;
    await recordEvents(tx, execution.workspaceId, [executionEvent(execution, log ? { log } : undefined)]);
    return { offset: first, count: rows.length };
  });
}

/** Appends one entry (see appendLogEntries); returns its seq. */
export async function appendLogEntry(db: Db, executionId: string, type: string, update: Record<string, unknown>): Promise<{ seq: number }> {
  const { offset } = await appendLogEntries(db, executionId, [{ type, update }]);
  return { seq: offset };
}

/**
 * The payload's JSON text. PostgreSQL's jsonb refuses the NUL character, and an agent may print
 * anything: NULs become U+FFFD. An oversized payload is replaced by what it was and how big, so one
 * entry never holds megabytes.
 */
function storable(update: Record<string, unknown>): string {
  const json = JSON.stringify(update ?? {}).replaceAll("\\u0000", "\\ufffd");
  if (json.length <= LOG_ENTRY_MAX_CHARS) return json;
  return JSON.stringify(oversizedUpdate(update, json.length));
}

/** How the runner hands its log to others during a run (the worktree steps write `git` entries with it). */
export type LogWriter = (type: string, update: Record<string, unknown>) => Promise<void>;
