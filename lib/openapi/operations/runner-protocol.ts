import type { OperationSpec } from "@/lib/openapi/types";
import {
  answerQuery,
  answerResponse,
  bundleResponse,
  claimBody,
  claimResponse,
  executionParams,
  diffBody,
  finishBody,
  heartbeatBody,
  heartbeatResponse,
  logBody,
  logResponse,
  permissionBody,
  permissionResponse,
  questionParams,
  releaseBody,
  remoteBody,
  remoteResponse,
  updateExecutionBody,
} from "@/lib/runner-protocol";

// The runner protocol (docs/runners.md, "Protocol"): only a runner's token works here.

const notHers = { 404: { description: "No such run of this runner" } };
const base = { tags: ["runner protocol"], auth: "runner" as const };

export const runnerProtocolOperations: OperationSpec[] = [
  {
    ...base,
    method: "post",
    path: "/api/runner/claim",
    operationId: "runnerClaim",
    summary:
      "Long poll for a job: the next queued run this runner may take (its profile's labels all among the runner's; round-robin across workspaces, oldest run first; within the workspace's max_concurrent_runs), claimed with a lease",
    body: claimBody,
    responses: { 200: { description: "A job, or null after wait_seconds", schema: claimResponse } },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/heartbeat",
    operationId: "runnerHeartbeat",
    summary: "Renew the leases of the runs the runner holds; says which to stop (cancel, timeout elsewhere)",
    body: heartbeatBody,
    responses: {
      200: {
        description: "Per run: whether to stop it, and why. With wait_seconds, at once when one is to stop, else when the wait is over",
        schema: heartbeatResponse,
      },
    },
  },
  {
    ...base,
    method: "patch",
    path: "/api/runner/executions/{execution_id}",
    operationId: "runnerUpdateExecution",
    summary: "Report the agent's process started, its ACP session and model, the task's worktree",
    params: executionParams,
    body: updateExecutionBody,
    responses: { 204: { description: "Recorded" }, ...notHers },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/log",
    operationId: "runnerAppendLog",
    summary: "Append the new log entries of the runner's runs, one batch per run; a batch sent again is stored once",
    body: logBody,
    responses: {
      200: { description: "One result per batch: the stored count, or why that batch was refused (404, 409)", schema: logResponse },
    },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/executions/{execution_id}/questions",
    operationId: "runnerAskPermission",
    summary: "Turn an agent's permission request into a question on its task (the run waits for input)",
    params: executionParams,
    body: permissionBody,
    responses: { 201: { description: "The question", schema: permissionResponse }, ...notHers },
  },
  {
    ...base,
    method: "get",
    path: "/api/runner/executions/{execution_id}/questions/{question_id}",
    operationId: "runnerAwaitPermission",
    summary: "Long poll for a permission question's answer, as the agent's option id",
    params: questionParams,
    query: answerQuery,
    responses: { 200: { description: "The answer so far", schema: answerResponse }, ...notHers },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/executions/{execution_id}/questions/{question_id}/settle",
    operationId: "runnerSettlePermission",
    summary: "The agent has its answer (or was cancelled): close the question, the run runs again",
    params: questionParams,
    responses: { 204: { description: "Settled" }, ...notHers },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/executions/{execution_id}/remote",
    operationId: "runnerRemote",
    summary: "git's way to the job's repository again (fresh: a newly minted token after git was refused)",
    params: executionParams,
    body: remoteBody,
    responses: { 200: { description: "URL and git environment", schema: remoteResponse }, ...notHers },
  },
  {
    ...base,
    method: "put",
    path: "/api/runner/executions/{execution_id}/diff",
    operationId: "runnerDiff",
    summary: "The task branch's diff against its base after the run, stored for GET …/tasks/{task_id}/diff (body up to 48 MB)",
    params: executionParams,
    body: diffBody,
    responses: { 204: { description: "Stored" }, ...notHers },
  },
  {
    ...base,
    method: "put",
    path: "/api/runner/executions/{execution_id}/bundle",
    operationId: "runnerBundle",
    summary:
      "The task branch's commits after the run, as a git bundle, taken into the server's clone (only the task's own branch, fast-forward only, objects fsck-checked) so a pull request can be opened or pushed from there; sent before the outcome",
    params: executionParams,
    rawBody: {
      contentType: "application/octet-stream",
      description:
        "A git bundle (`git bundle create <file> refs/heads/<task branch> ^refs/remotes/origin/<default branch>`), at most RUNNER_BUNDLE_MAX_BYTES (256 MiB)",
    },
    responses: {
      200: {
        description:
          "Taken (stored true, also when the clone had the commits already), or not, with the reason in words for the run's log (its base missing even after a fetch, a branch that went another way, git failing here)",
        schema: bundleResponse,
      },
      ...notHers,
      409: { description: "The task has no branch, no repository, or a branch that is not its own (the board never takes or pushes it)" },
      413: { description: "Larger than RUNNER_BUNDLE_MAX_BYTES" },
      422: { description: "Not a git bundle, no ref of the task's branch in it, or objects that fail git's checks; nothing was changed" },
    },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/executions/{execution_id}/finish",
    operationId: "runnerFinish",
    summary: "The outcome, with usage and the branch's changes; sent again it changes nothing",
    params: executionParams,
    body: finishBody,
    responses: { 204: { description: "Recorded" }, ...notHers },
  },
  {
    ...base,
    method: "post",
    path: "/api/runner/executions/{execution_id}/release",
    operationId: "runnerRelease",
    summary: "Hand an unfinished run back (the runner is shutting down): it is queued again, its log kept, for another runner",
    params: executionParams,
    body: releaseBody,
    responses: {
      204: { description: "Queued again" },
      ...notHers,
      409: { description: "The run already ended (cancelled, or its lease ran out): nothing to hand back" },
    },
  },
];
