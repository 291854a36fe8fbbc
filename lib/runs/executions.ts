import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/api/errors";
import { finishExecution } from "@/lib/runs/finish-execution";
import { runnerHandle } from "@/lib/runs/runner-handle";
import { serializeExecution, serializeTaskRun } from "@/lib/runs/serialize";
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
  // The history opens each run's live view, which reads the execution.
  return runs.map((run) => ({ ...serializeTaskRun(run), execution_id: run.execution?.id ?? null }));
}

export async function getExecution(db: Db, workspaceId: string, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, workspaceId } });
  if (!execution) throw notFound("Execution");
  return execution;
}

/** A log page stops before this many bytes of line text (at least one line), however short its lines. */
export const LOG_PAGE_MAX_BYTES = 1024 * 1024;

/**
 * Lines [offset, offset + limit) of the stored log, cut short at LOG_PAGE_MAX_BYTES; `next_offset`
 * is where the next page starts either way. Lines still buffered in the runner follow within a second.
 */
export async function readExecutionLog(db: Db, workspaceId: string, executionId: string, offset: number, limit: number) {
  const execution = await getExecution(db, workspaceId, executionId);
  const end = offset + limit;
  // bigint: offset + limit may pass the integer range at the end of the offsets the API accepts.
  const chunks = await db.$queryRaw<{ first_line: number; line_count: number; content: string }[]>`
    SELECT first_line, line_count, content FROM execution_log_chunks
    WHERE execution_id = ${executionId} AND first_line < ${end}::bigint AND first_line + line_count > ${offset}::bigint
    ORDER BY first_line`;
  const lines: string[] = [];
  let next = offset;
  let bytes = 0;
  pages: for (const chunk of chunks) {
    const first = Number(chunk.first_line);
    // A gap (a batch that could not be stored) ends this page; the next one starts after it.
    if (first > next) {
      if (lines.length > 0) break;
      next = first;
    }
    const from = next - first;
    for (const line of chunk.content.split("\n").slice(from, from + (end - next))) {
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > LOG_PAGE_MAX_BYTES && lines.length > 0) break pages;
      lines.push(line);
      next++;
    }
    if (next >= end) break;
  }
  const finished = isFinishedRunStatus(execution.status);
  return {
    execution_id: execution.id,
    status: execution.status as RunStatus,
    offset: lines.length > 0 ? next - lines.length : offset,
    lines,
    next_offset: lines.length > 0 ? next : offset,
    line_count: execution.lineCount,
    complete: finished && next >= execution.lineCount,
  };
}

/**
 * Cancels a queued or running execution. Here the process group gets SIGTERM (SIGKILL after the
 * grace period) and the answer waits for it; an execution running in another instance is marked
 * cancelled and that instance stops its process within a poll interval.
 */
export async function cancelExecution(db: Db, workspaceId: string, executionId: string, username: string) {
  const execution = await getExecution(db, workspaceId, executionId);
  if (isFinishedRunStatus(execution.status)) throw conflict(`The execution has already finished (${execution.status})`);
  const message = `cancelled by ${username}`;
  const handledHere = (await runnerHandle()?.cancel(executionId, message)) ?? false;
  if (!handledHere) await finishExecution(db, executionId, { status: RUN_STATUS.cancelled, errorMessage: message }, ACTIVE_RUN_STATUSES);
  return serializeExecution(await getExecution(db, workspaceId, executionId));
}
