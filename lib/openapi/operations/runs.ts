import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { taskDiffQuery, taskDiffResponse } from "@/lib/worktrees/schemas";
import {
  execution,
  executionLog,
  executionParams,
  fixConflictsQuery,
  listRunsQuery,
  logQuery,
  startRunBody,
  taskParams,
  runHistoryItem,
} from "@/lib/runs/schemas";

// Error responses without a schema get the document's shared {detail} body.
const notFound = (what: string) => ({ description: `${what} not found, or the caller is not a member of the workspace` });

export const runOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}/runs",
    operationId: "listTaskRuns",
    summary: "The task's runs, newest first; at most `limit` (default 50, max 100)",
    tags: ["runs"],
    params: taskParams,
    query: listRunsQuery,
    responses: { 200: { description: "Task runs", schema: z.array(runHistoryItem) }, 404: notFound("Workspace or task") },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/runs",
    operationId: "startTaskRun",
    summary:
      "Run an agent on the task now (trigger manual): the profile `agent_id`, else the workspace's default profile, else AGENT_COMMAND or the demo agent. " +
      "Without instructions the task's title and description are used; review `comments` are appended with file:line references. " +
      "A follow-up on the same task continues its working directory and, where the agent supports session/load, its ACP session. " +
      "With the workspace's auto_move_tasks (default) a task in backlog or todo is in in_progress by the time this answers, and moves on to in_review when the run succeeds with changes on its branch.",
    tags: ["runs"],
    params: taskParams,
    body: startRunBody,
    responses: {
      202: {
        description:
          "The execution: `running` with its runner_pid once a runner has started the agent (the answer waits up to RUN_START_WAIT_SECONDS while a runner that may take it has room), " +
          "else `queued` with `waiting_for_runner`. With `Prefer: respond-async` it answers `queued` at once, with `Preference-Applied: respond-async`.",
        schema: execution,
      },
      403: {
        description:
          "With an agent token (TASKBOARD_API_TOKEN): an agent_id other than its own run's profile, or a chain of agent-started runs deeper than AGENT_RUN_CHAIN_MAX",
      },
      404: notFound("Workspace, task or agent profile"),
      409: {
        description:
          "An execution of this task is already queued, running or waiting for input, or the task is blocked by tasks that are not done (named; send force: true to run anyway)",
      },
      429: {
        description:
          "With an agent token: the workspace's agents started AGENT_STARTED_RUNS_PER_MINUTE runs in the last minute; see Retry-After",
      },
    },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/fix-conflicts",
    operationId: "fixConflicts",
    summary:
      "With a workspace repository: merge the default branch into the task's own branch (which must exist on the remote; a fix never creates one) in git: a clean merge is pushed without the agent; conflicts go to the agent with the conflict-fixing instructions and the conflicted files, and the merge is committed and pushed only when no marker remains. Without a repository: the agent gets the pull request (TASKBOARD_PR_URL) and the instructions, and merges and pushes itself. After a succeeded fix has_merge_conflict is cleared and, unless keep_status, the task moves to in_review",
    tags: ["runs"],
    params: taskParams,
    query: fixConflictsQuery,
    responses: {
      202: { description: "The execution record", schema: execution },
      403: { description: "With an agent token: a chain of agent-started runs deeper than AGENT_RUN_CHAIN_MAX" },
      404: notFound("Workspace or task"),
      409: {
        description:
          "The task has no merge conflict, or an execution is already running; with a repository, the task has no branch or its branch is not its own (the default branch, or neither tb/<number>-… nor its linked pull request's head branch); without one, the task has no pr_url",
      },
      429: {
        description:
          "With an agent token: the workspace's agents started AGENT_STARTED_RUNS_PER_MINUTE runs in the last minute; see Retry-After",
      },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}/diff",
    operationId: "getTaskDiff",
    summary:
      "The task branch's changes against the point where it left the default branch, as the task's last run stored them: files, then hunks, then lines (at most 20,000 changed lines and DIFF_MAX_BYTES get hunks; `truncated` says when some were left out)",
    tags: ["runs"],
    params: taskParams,
    query: taskDiffQuery,
    responses: {
      200: { description: "The diff", schema: taskDiffResponse },
      404: notFound("Workspace or task"),
      409: { description: "The workspace has no repository, the task no branch, or no run has recorded a diff of the task's branch yet" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/executions/{execution_id}",
    operationId: "getExecution",
    summary: "One execution (the process behind a task run)",
    tags: ["runs"],
    params: executionParams,
    responses: { 200: { description: "The execution record", schema: execution }, 404: notFound("Workspace or execution") },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/executions/{execution_id}/log",
    operationId: "getExecutionLog",
    summary:
      "Structured log entries from seq `offset` (0-based), at most `limit` (default 1000, max 10000) and about 1 MiB; " +
      "`type` is the ACP sessionUpdate (update = its payload as received) or output/prompt/permission/stop/error/git. New entries also arrive as execution.updated events",
    tags: ["runs"],
    params: executionParams,
    query: logQuery,
    responses: { 200: { description: "A page of the log", schema: executionLog }, 404: notFound("Workspace or execution") },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/executions/{execution_id}/cancel",
    operationId: "cancelExecution",
    summary:
      "Cancel a queued, running or waiting execution: an ACP agent gets session/cancel (a pending permission question is answered `cancelled`), then SIGTERM to its process group, SIGKILL after a grace period",
    tags: ["runs"],
    params: executionParams,
    responses: {
      200: { description: "The execution record, status cancelled", schema: execution },
      404: notFound("Workspace or execution"),
      409: { description: "The execution has already finished" },
    },
  },
];
