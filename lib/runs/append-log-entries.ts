import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { conflict, HttpError, notFound } from "@/lib/platform/errors";
import { recordEventsOfWorkspaces } from "@/lib/events/record-events";
import { executionEvent } from "@/lib/runs/finish-execution";
import type { LogEntry } from "@/lib/runs/schemas";
import { oversizedUpdate } from "@/lib/runs/oversized-entry";
import { withoutNul } from "@/lib/runs/without-nul";
import { agentLogMaxBytes } from "@/lib/platform/runner-config";
import { closedLogReason, type LockedLogRow } from "@/lib/runs/ended-run";

// The one writer of executions' structured logs (execution_log_chunks). A runner sends the new
// entries of all its runs at once (POST /api/runner/log); the server adds its own notes (a run
// handed back) the same way. Numbers come from the execution rows (line_count, incremented in the
// same transaction under their row locks), so several writers of one execution never share or
// skip a seq. The statements per call do not grow with the number of runs or entries in it, and
// each run's new entries are stored as one row (a chunk, a JSON array text): the log of 20 busy
// agents costs the server a few statements per runner flush and a row per run, not per line
// (docs/PERFORMANCE.md, "Log ingestion").

export interface NewLogEntry {
  type: string;
  update: Record<string, unknown>;
  /** When it happened; now by default. */
  at?: Date;
}

export interface LogBatch {
  executionId: string;
  entries: NewLogEntry[];
  /**
   * A runner's batch, which it may send again after a lost answer: the first entry's seq. Entries
   * already stored are skipped, so each is stored exactly once and in order; a batch that would
   * leave a gap is refused (409).
   */
  firstSeq?: number;
}

/** Where a batch went (the first entry's seq and how many were new), or why it was refused. */
export type BatchResult =
  | { executionId: string; offset: number; count: number }
  | { executionId: string; error: HttpError; /** Refused because the run has ended. */ ended?: true };

/**
 * An entry's payload is kept up to this size (JSON characters); a bigger one is cut and marked
 * (its text's first LOG_ENTRY_KEPT_CHARS) or, without a text, stored as a stub saying so: a runner
 * cannot store megabytes in one entry, and the rest of its batch is stored as sent.
 */
export const LOG_ENTRY_MAX_CHARS = 256 * 1024;
/** Even escaped six times over (\u001f), this much text fits LOG_ENTRY_MAX_CHARS. */
const LOG_ENTRY_KEPT_CHARS = 32 * 1024;
/**
 * A runner's batches are refused (413) once the run's log holds this much past AGENT_LOG_MAX_BYTES:
 * room for the runner's own notes past its cap (1 MB, lib/runner-process/log-sink.ts) and a batch, so an
 * honest runner with the server's setting never meets it, and a hostile one stores a bounded log.
 */
const SERVER_LOG_ROOM_BYTES = 2 * 1024 * 1024;
/** Sizes in the log's sum are capped at this, as is the sum, so the int column never overflows. */
const LOG_BYTES_MAX = 2 ** 31 - 1;
/** A chunk holds up to this many entries, and past this many characters starts the next one (an entry is never split). */
const CHUNK_MAX_ENTRIES = 500;
const CHUNK_MAX_CHARS = 64 * 1024;
/** 4 bind parameters per chunk, far below PostgreSQL's 65,535 for any one statement. */
const CHUNKS_PER_STATEMENT = 1000;
/** Batches up to this many entries ride along in the execution.updated event; bigger ones are fetched. */
const EVENT_ENTRIES_MAX = 500;
const EVENT_CHARS_MAX = 64 * 1024;

/** An entry as it is stored: its payload's JSON text, and the payload that JSON says (for the event). */
interface Prepared {
  at: string;
  type: string;
  json: string;
  update: Record<string, unknown>;
  /** Its size as the runner's cap counts it: a text's UTF-8 bytes, else the JSON's length, and 32 for the entry. */
  bytes: number;
}

interface Row extends Prepared {
  executionId: string;
  seq: number;
}

/**
 * Appends each batch to its execution's log, all in one transaction, with one execution.log
 * event per execution (carrying its entries when they are few) as the last statement. `runnerId`:
 * only executions that runner holds; any other is refused as not found, and one that has ended past
 * its wind-down as closed (409, lib/runs/ended-run.ts). A refused batch (404, 409) does not stop the others.
 */
export async function appendLogBatches(db: Db, batches: LogBatch[], options: { runnerId?: string } = {}): Promise<BatchResult[]> {
  if (batches.length === 0) return [];
  const ids = [...new Set(batches.map((batch) => batch.executionId))];
  // Everything that needs no lock is done before the transaction, to keep it short.
  const prepared = batches.map((batch) => batch.entries.map(prepare));
  return db.$transaction(async (tx) => {
    // Locked in id order, so two writers of overlapping sets cannot deadlock.
    const locked = await tx.$queryRawUnsafe<LockedLogRow[]>(
      `SELECT id, line_count, log_bytes, status, finished_at, lease_expires_at FROM executions
       WHERE id = ANY($1::text[]) AND ($2::text IS NULL OR runner_id = $2) ORDER BY id FOR UPDATE`,
      ids,
      options.runnerId ?? null,
    );
    // A runner's entries for a run that has ended are refused past its wind-down; the server's own notes are not.
    const ended = new Map(options.runnerId ? locked.flatMap((row) => closedLogReason(row)) : []);
    const stored = new Map(locked.map((row) => [row.id, row.line_count]));
    const logBytes = new Map(locked.map((row) => [row.id, row.log_bytes]));
    // Only runners' batches: the server's own notes (a run handed back) are few and always kept.
    const full = options.runnerId ? Math.min(agentLogMaxBytes() + SERVER_LOG_ROOM_BYTES, LOG_BYTES_MAX) : Infinity;
    const lineCountBefore = new Map(stored);
    const results: BatchResult[] = [];
    const rows: Row[] = [];
    for (const [index, batch] of batches.entries()) {
      const count = stored.get(batch.executionId);
      if (count === undefined) {
        results.push({ executionId: batch.executionId, error: notFound("Execution") });
        continue;
      }
      const closed = ended.get(batch.executionId);
      if (closed) {
        results.push({ executionId: batch.executionId, error: conflict(closed), ended: true });
        continue;
      }
      const skip = batch.firstSeq === undefined ? 0 : count - batch.firstSeq;
      if (skip < 0) {
        results.push({
          executionId: batch.executionId,
          error: conflict(`The log holds ${count} entries: the next batch must start at seq ${count}`),
        });
        continue;
      }
      const fresh = prepared[index].slice(skip);
      const bytesBefore = logBytes.get(batch.executionId)!;
      if (fresh.length > 0 && bytesBefore >= full) {
        results.push({ executionId: batch.executionId, error: logFull() });
        continue;
      }
      fresh.forEach((entry, offset) => rows.push({ ...entry, executionId: batch.executionId, seq: count + offset }));
      stored.set(batch.executionId, count + fresh.length);
      logBytes.set(
        batch.executionId,
        Math.min(
          LOG_BYTES_MAX,
          fresh.reduce((sum, entry) => sum + entry.bytes, bytesBefore),
        ),
      );
      results.push({ executionId: batch.executionId, offset: count, count: fresh.length });
    }
    if (rows.length === 0) return results;

    const chunks = chunksOf(rows);
    for (let at = 0; at < chunks.length; at += CHUNKS_PER_STATEMENT) {
      const some = chunks.slice(at, at + CHUNKS_PER_STATEMENT);
      await tx.$executeRawUnsafe(
        `INSERT INTO execution_log_chunks (execution_id, first_seq, count, entries) VALUES ${some
          .map((_, i) => `($${4 * i + 1}, $${4 * i + 2}::int, $${4 * i + 3}::int, $${4 * i + 4})`)
          .join(", ")}`,
        ...some.flatMap((chunk) => [chunk.executionId, chunk.firstSeq, chunk.count, chunk.entries]),
      );
    }
    const grown = [...stored].filter(([id, count]) => count > lineCountBefore.get(id)!).map(([id, count]) => ({ id, count }));
    const lastAt = new Map(rows.map((row) => [row.executionId, row.at]));
    await tx.$executeRawUnsafe(
      `UPDATE executions e SET line_count = v.count, last_activity_at = v.at, log_bytes = v.bytes
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, count int, at timestamptz, bytes int) WHERE e.id = v.id`,
      JSON.stringify(grown.map(({ id, count }) => ({ id, count, at: lastAt.get(id), bytes: logBytes.get(id) }))),
    );
    const executions = await tx.execution.findMany({ where: { id: { in: grown.map((row) => row.id) } } });
    await recordEventsOfWorkspaces(
      tx,
      executions.map((execution) => ({
        workspaceId: execution.workspaceId,
        ...eventOf(execution, lineCountBefore.get(execution.id)!, rows),
      })),
    );
    return results;
  });
}

function logFull() {
  return new HttpError(
    413,
    `This run's log is full: the server keeps about ${agentLogMaxBytes()} bytes of a run's log (AGENT_LOG_MAX_BYTES) and no more entries of its runner`,
  );
}

/** The execution.log event of a grown log (the record, and its new entries when they are few and small). */
function eventOf(execution: Execution, first: number, rows: Row[]) {
  const own = rows.filter((row) => row.executionId === execution.id);
  const small = own.length <= EVENT_ENTRIES_MAX && own.reduce((sum, row) => sum + row.json.length, 0) <= EVENT_CHARS_MAX;
  const log = small
    ? { offset: first, entries: own.map((row): LogEntry => ({ seq: row.seq, at: row.at, type: row.type, update: row.update })) }
    : undefined;
  return { ...executionEvent(execution, log ? { log } : undefined), type: "execution.log" as const };
}

/** A row of execution_log_chunks: entries firstSeq .. firstSeq + count - 1, as the JSON array text readExecutionLog parses. */
interface Chunk {
  executionId: string;
  firstSeq: number;
  count: number;
  entries: string;
}

/** Each execution's new rows, in seq order, cut into chunks. */
function chunksOf(rows: Row[]): Chunk[] {
  const chunks: Chunk[] = [];
  let open: { executionId: string; firstSeq: number; texts: string[]; chars: number } | undefined;
  const close = () => {
    if (open)
      chunks.push({
        executionId: open.executionId,
        firstSeq: open.firstSeq,
        count: open.texts.length,
        entries: `[${open.texts.join(",")}]`,
      });
    open = undefined;
  };
  for (const row of rows) {
    const text = `{"at":${JSON.stringify(row.at)},"type":${JSON.stringify(row.type)},"update":${row.json}}`;
    if (
      open &&
      (open.executionId !== row.executionId || open.texts.length >= CHUNK_MAX_ENTRIES || open.chars + text.length > CHUNK_MAX_CHARS)
    ) {
      close();
    }
    open ??= { executionId: row.executionId, firstSeq: row.seq, texts: [], chars: 0 };
    open.texts.push(text);
    open.chars += text.length;
  }
  close();
  return chunks;
}

/** One execution's entries (see appendLogBatches); a refusal is thrown. */
export async function appendLogEntries(
  db: Db,
  executionId: string,
  entries: NewLogEntry[],
  options: { firstSeq?: number; runnerId?: string } = {},
): Promise<{ offset: number; count: number }> {
  const [result] = await appendLogBatches(db, [{ executionId, entries, firstSeq: options.firstSeq }], { runnerId: options.runnerId });
  if ("error" in result) throw result.error;
  return result;
}

/**
 * The entry as stored: NULs become U+FFFD (lib/runs/without-nul.ts). An oversized payload keeps
 * the start of its text, marked `truncated` with its size (`chars`), or is replaced by what it was
 * and how big, so one entry never holds megabytes.
 */
function prepare(entry: NewLogEntry): Prepared {
  const at = (entry.at ?? new Date()).toISOString();
  const given = entry.update ?? {};
  const plain = JSON.stringify(given);
  const update = withoutNul(given, plain);
  const json = update === given ? plain : JSON.stringify(update);
  if (json.length > LOG_ENTRY_MAX_CHARS) {
    const text = update.text;
    const cut =
      typeof text === "string" ? { ...update, text: text.slice(0, LOG_ENTRY_KEPT_CHARS), truncated: true, chars: json.length } : null;
    const cutJson = cut && JSON.stringify(cut);
    if (cut && cutJson!.length <= LOG_ENTRY_MAX_CHARS)
      return { at, type: entry.type, json: cutJson!, update: cut, bytes: sizeOf(cut, cutJson!) };
    const stub = oversizedUpdate(entry.update, json.length);
    const stubJson = JSON.stringify(stub);
    return { at, type: entry.type, json: stubJson, update: stub, bytes: stubJson.length };
  }
  return { at, type: entry.type, json, update, bytes: sizeOf(update, json) };
}

function sizeOf(update: Record<string, unknown>, json: string): number {
  return (typeof update.text === "string" ? Buffer.byteLength(update.text) : json.length) + 32;
}

/** How the runner hands its log to others during a run (the worktree steps write `git` entries with it). */
export type LogWriter = (type: string, update: Record<string, unknown>) => Promise<void>;
