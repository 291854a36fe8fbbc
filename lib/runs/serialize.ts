import type { Execution, TaskRun } from "@/lib/generated/prisma/client";

// TaskRunResponse and the Execution record of the interface document.

export function serializeTaskRun(run: TaskRun) {
  return {
    id: run.id,
    task_id: run.taskId,
    session_id: run.sessionId,
    attempt_number: run.attemptNumber,
    status: run.status,
    exit_code: run.exitCode,
    error_message: run.errorMessage,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    duration_seconds: run.durationSeconds,
    trigger: run.trigger,
  };
}

export function serializeExecution(execution: Execution) {
  return {
    id: execution.id,
    workspace_id: execution.workspaceId,
    task_id: execution.taskId,
    task_run_id: execution.taskRunId,
    session_name: execution.sessionName,
    status: execution.status,
    runner_pid: execution.runnerPid,
    exit_code: execution.exitCode,
    error_message: execution.errorMessage,
    line_count: execution.lineCount,
    last_activity_at: execution.lastActivityAt?.toISOString() ?? null,
    started_at: execution.startedAt.toISOString(),
    finished_at: execution.finishedAt?.toISOString() ?? null,
    duration: execution.duration,
    keep_status: execution.keepStatus,
    report: execution.report,
  };
}

export type ExecutionResponse = ReturnType<typeof serializeExecution>;
export type TaskRunResponse = ReturnType<typeof serializeTaskRun>;
