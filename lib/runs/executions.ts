import type { Db } from "@/lib/db/client";
import { awaitStopped } from "@/lib/runs/await-runner";
import { conflict, notFound } from "@/lib/platform/errors";
import { finishExecution } from "@/lib/runs/finish-execution";
import type { LogEntry } from "@/lib/runs/schemas";
import { serializeExecution, serializeTaskRun } from "@/lib/runs/serialize";
import { waitingForRunners } from "@/lib/runs/waiting-for-runner";
import { ACTIVE_RUN_STATUSES, isFinishedRunStatus, RUN_STATUS, type RunStatus } from "@/lib/runs/statuses";

export async function listTaskRuns(db: Db, workspaceId: string, taskId: string, limit: number) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { id: true } });
  if (!task) throw notFound("Task");
  const runs = await db.taskRun.findMany({
    where: { taskId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { execution: { select: { id: true } } },
  });
  const waiting = await waitingForRunners(
    db,
    runs.flatMap((run) => (run.status === RUN_STATUS.queued && run.execution ? [run.execution.id] : [])),
  );
  // The history opens each run's live view, which reads the execution.
  return runs.map((run) => ({
    ...serializeTaskRun(run),
    execution_id: run.execution?.id ?? null,
    waiting_for_runner: (run.execution && waiting.get(run.execution.id)) ?? null,
  }));
}

export async function getExecution(db: Db, workspaceId: string, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, workspaceId } });
  if (!execution) throw notFound("Execution");
  return execution;
}

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

/**
 * Cancels a queued or running execution: it is recorded `cancelled` at once, and the runner that
 * holds it stops its agent at its next heartbeat (SIGTERM to the process group, SIGKILL after the
 * grace period) and adds the process's own facts to the record. The answer waits for that report,
 * a few seconds at most (lib/runs/await-runner.ts), so it says the agent is stopped.
 */
export async function cancelExecution(db: Db, workspaceId: string, executionId: string, username: string) {
  const execution = await getExecution(db, workspaceId, executionId);
  if (isFinishedRunStatus(execution.status)) throw conflict(`The execution has already finished (${execution.status})`);
  const message = `cancelled by ${username}`;
  await finishExecution(db, executionId, { status: RUN_STATUS.cancelled, errorMessage: message }, ACTIVE_RUN_STATUSES);
  await awaitStopped(db, workspaceId, executionId);
  return serializeExecution(await getExecution(db, workspaceId, executionId));
}
