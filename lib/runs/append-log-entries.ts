import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { executionEvent } from "@/lib/runs/finish-execution";
import type { LogEntry } from "@/lib/runs/schemas";

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
 * (carrying the entries when the batch is small) as its last statement. Returns them as stored.
 */
export async function appendLogEntries(db: Db, executionId: string, entries: NewLogEntry[]): Promise<LogEntry[]> {
  if (entries.length === 0) return [];
  const rows = entries.map((entry) => ({ type: entry.type, update: storable(entry.update), at: entry.at ?? new Date() }));
  return db.$transaction(async (tx) => {
    const execution = await tx.execution.update({
      where: { id: executionId },
      data: { lineCount: { increment: rows.length }, lastActivityAt: rows[rows.length - 1].at },
    });
    const first = execution.lineCount - rows.length;
    await tx.executionLogEntry.createMany({
      data: rows.map((row, index) => ({ executionId, seq: first + index, at: row.at, type: row.type, update: row.update })),
    });
    const stored: LogEntry[] = rows.map((row, index) => ({
      seq: first + index,
      at: row.at.toISOString(),
      type: row.type,
      update: row.update as Record<string, unknown>,
    }));
    const small = stored.length <= EVENT_ENTRIES_MAX && JSON.stringify(stored).length <= EVENT_CHARS_MAX;
    await recordEvents(tx, execution.workspaceId, [
      executionEvent(execution, small ? { log: { offset: first, entries: stored } } : undefined),
    ]);
    return stored;
  });
}

/** Appends one entry (see appendLogEntries). */
export async function appendLogEntry(db: Db, executionId: string, type: string, update: Record<string, unknown>): Promise<LogEntry> {
  const [stored] = await appendLogEntries(db, executionId, [{ type, update }]);
  return stored;
}

/**
 * PostgreSQL's jsonb refuses the NUL character, and an agent may print anything: NULs become U+FFFD.
 * An oversized payload is replaced by what it was and how big, so one entry never holds megabytes.
 */
function storable(update: Record<string, unknown>): Prisma.InputJsonObject {
  const json = JSON.stringify(update ?? {}).replaceAll("\\u0000", "\\ufffd");
  if (json.length <= LOG_ENTRY_MAX_CHARS) return JSON.parse(json) as Prisma.InputJsonObject;
  const kind = typeof update.sessionUpdate === "string" ? { sessionUpdate: update.sessionUpdate } : {};
  const id = typeof update.toolCallId === "string" ? { toolCallId: update.toolCallId } : {};
  return { ...kind, ...id, truncated: true, chars: json.length };
}

/** How the runner hands its log to others during a run (the worktree steps write `git` entries with it). */
export type LogWriter = (type: string, update: Record<string, unknown>) => Promise<void>;
