import { agentSilenceSeconds } from "@/lib/config";
import type { Execution, TaskRun } from "@/lib/generated/prisma/client";
import type { ExecutionResponse } from "@/lib/runs/schemas";
import { RUN_STATUS, type RunStatus, type RunTrigger } from "@/lib/runs/statuses";
import type { RunUsage } from "@/lib/runner-protocol";
import type { TaskRunResponse, WaitingForRunner } from "@/lib/tasks/schemas";

// The task run and execution records, typed by their schemas (the columns are plain text in the
// database; only the runs code writes them, with the values of lib/runs/statuses.ts).

export function serializeTaskRun(run: TaskRun): TaskRunResponse {
  return {
    id: run.id,
    task_id: run.taskId,
    session_id: run.sessionId,
    attempt_number: run.attemptNumber,
    status: run.status as RunStatus,
    exit_code: run.exitCode,
    error_message: run.errorMessage,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    duration_seconds: run.durationSeconds,
    trigger: run.trigger as RunTrigger,
    agent_id: run.agentId,
    agent_name: run.agentName,
    usage: (run.usage as RunUsage | null) ?? null,
    model: run.model,
    no_output: run.noOutput,
    commit_sha: run.commitSha,
    files_changed: run.filesChanged,
    lines_added: run.linesAdded,
    lines_removed: run.linesRemoved,
  };
}

/**
 * `waiting`: why it waits for a runner (lib/runs/waiting-for-runner.ts). Only a queued execution
 * waits, so callers serializing one that may be queued pass it; every other status is null.
 */
export function serializeExecution(execution: Execution, waiting: WaitingForRunner = null): ExecutionResponse {
  return {
    id: execution.id,
    workspace_id: execution.workspaceId,
    task_id: execution.taskId,
    task_run_id: execution.taskRunId,
    session_name: execution.sessionName,
    status: execution.status as RunStatus,
    runner_pid: execution.runnerPid,
    runner_id: execution.runnerId,
    runner_name: execution.runnerName,
    waiting_for_runner: execution.status === RUN_STATUS.queued ? waiting : null,
    exit_code: execution.exitCode,
    error_message: execution.errorMessage,
    line_count: execution.lineCount,
    last_activity_at: execution.lastActivityAt?.toISOString() ?? null,
    silence_after_seconds: agentSilenceSeconds(),
    started_at: execution.startedAt.toISOString(),
    finished_at: execution.finishedAt?.toISOString() ?? null,
    duration: execution.duration,
    keep_status: execution.keepStatus,
    report: execution.report,
    agent_id: execution.agentId,
    acp_session_id: execution.acpSessionId,
    acp_session_loaded: execution.acpSessionLoaded,
    started_by_execution_id: execution.startedByExecId,
    chain_depth: execution.chainDepth,
  };
}
