import type { Db } from "@/lib/db/client";
import type { LogEntry } from "@/lib/runs/schemas";
import { isFinishedRunStatus, type RunStatus } from "@/lib/runs/statuses";
import { getExecution } from "@/lib/runs/get-execution";

/** A log page stops before this many characters of entry JSON (at least one entry), however small its entries. */
export const LOG_PAGE_MAX_CHARS = 1024 * 1024;

/**
 * Entries [offset, offset + limit) of the stored log, cut short at LOG_PAGE_MAX_CHARS; `next_offset`
 * is where the next page starts either way. Entries still buffered in the runner follow within a second.
 */
export async function readExecutionLog(db: Db, workspaceId: string, executionId: string, offset: number, limit: number) {
  const execution = await getExecution(db, workspaceId, executionId);
  // The chunk holding `offset` (the last one starting at or before it) and those after it, up to
  // the page's end: an index range on (execution_id, first_seq), as many rows as the page needs.
  const chunks = await db.$queryRawUnsafe<{ first_seq: number; entries: string }[]>(
    `SELECT first_seq, entries FROM execution_log_chunks
     WHERE execution_id = $1
       AND first_seq >= COALESCE((SELECT max(first_seq) FROM execution_log_chunks WHERE execution_id = $1 AND first_seq <= $2::bigint), 0)
       AND first_seq < $2::bigint + $3::bigint
     ORDER BY first_seq`,
    executionId,
    offset,
    limit,
  );
  const entries: LogEntry[] = [];
  let chars = 0;
  read: for (const chunk of chunks) {
    const stored = JSON.parse(chunk.entries) as Omit<LogEntry, "seq">[];
    for (const [index, entry] of stored.entries()) {
      const seq = chunk.first_seq + index;
      if (seq < offset) continue;
      if (entries.length >= limit) break read;
      const full = { seq, at: entry.at, type: entry.type, update: entry.update };
      chars += JSON.stringify(full).length;
      if (chars > LOG_PAGE_MAX_CHARS && entries.length > 0) break read;
      entries.push(full);
    }
  }
  const next = entries.length > 0 ? entries[entries.length - 1].seq + 1 : offset;
  const finished = isFinishedRunStatus(execution.status);
  return {
    execution_id: execution.id,
    status: execution.status as RunStatus,
    offset: entries[0]?.seq ?? offset,
    entries,
    next_offset: next,
    line_count: execution.lineCount,
    complete: finished && next >= execution.lineCount,
  };
}
