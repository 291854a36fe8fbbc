import { z } from "zod";
import { floatNumber, INT32_MAX, queryBool, queryInt } from "@/lib/platform/schema-primitives";
import { runStatus, taskRunResponse, waitingForRunner } from "@/lib/tasks/schemas";

export const taskParams = z.object({ id: z.string(), task_id: z.string() });
export const executionParams = z.object({ id: z.string(), execution_id: z.string() });

export const listRunsQuery = z.object({
  limit: queryInt(z.int().min(1).max(100)).default(50),
});

export const reviewComment = z.object({
  path: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .regex(/^[^\0]*$/, "Must not contain a null character"),
  line: z.int().min(1).max(INT32_MAX),
  body: z.string().trim().min(1).max(20_000),
});

/** No body, or `{}`, runs the task's own title and description as instructions with the workspace's default agent. */
export const startRunBody = z
  .object({
    instructions: z.string().max(100_000).nullish(),
    agent_id: z.string().min(1).max(100).nullish().describe("An agent profile of this workspace; without it the default profile."),
    comments: z
      .array(reviewComment)
      .max(200)
      .optional()
      .describe("Review comments on the task's diff; they are added to the instructions with file:line references."),
    force: z.boolean().optional().describe("Run even though the task is blocked by tasks that are not done (otherwise 409 naming them)."),
  })
  .optional();

export const fixConflictsQuery = z.object({
  keep_status: queryBool().default(false),
});

export const logQuery = z.object({
  offset: queryInt(z.int().min(0).max(INT32_MAX)).default(0),
  limit: queryInt(z.int().min(1).max(10_000)).default(1000),
});

// The task run record is the tasks API's `taskRunResponse` (lib/tasks/schemas.ts), shared by both.

/** A row of a task's run history: the run, and the execution whose live view it opens. */
export const runHistoryItem = taskRunResponse.extend({
  execution_id: z.string().nullable().describe("The run's execution (its log and live view); null only for runs made before executions."),
  waiting_for_runner: waitingForRunner,
});

export const execution = z.object({
  id: z.string(),
  workspace_id: z.string(),
  task_id: z.string(),
  task_run_id: z.string(),
  session_name: z.string(),
  status: runStatus,
  runner_pid: z.int().nullable(),
  runner_id: z
    .string()
    .nullable()
    .describe("The runner that claimed it (docs/runners.md); null until claimed, and for runs the server ran itself"),
  runner_name: z.string().nullable().describe("That runner's name when it claimed the run"),
  waiting_for_runner: waitingForRunner,
  exit_code: z.int().nullable(),
  error_message: z.string().nullable(),
  line_count: z.int(),
  last_activity_at: z.string().nullable(),
  silence_after_seconds: z
    .int()
    .optional()
    .describe('AGENT_SILENCE_SECONDS: a running execution with no log entry for this long is shown as "no output for N min".'),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration: floatNumber().nullable(),
  keep_status: z.boolean(),
  report: z.string().nullable(),
  agent_id: z.string().nullable(),
  acp_session_id: z.string().nullable().describe("The Agent Client Protocol session the agent worked in (ACP profiles)."),
  acp_session_loaded: z
    .boolean()
    .nullable()
    .describe("True when it continued an earlier run's session (session/load), false for a new session, null before one existed."),
  started_by_execution_id: z
    .string()
    .nullable()
    .optional()
    .describe("The execution whose agent token started this one (TASKBOARD_API_TOKEN); null when a person, a script or the board did."),
  chain_depth: z
    .int()
    .optional()
    .describe("How many agent-started runs lead to this one: 0 for a person's run; agents may chain at most AGENT_RUN_CHAIN_MAX."),
});

export type ExecutionResponse = z.output<typeof execution>;

/**
 * One entry of the structured log. `type` is the ACP `sessionUpdate` (agent_message_chunk, plan,
 * tool_call, tool_call_update, usage_update, …) with `update` the payload as received, or one of the
 * runner's own: output {stream, text}, prompt {text}, permission {question_id, title, options, outcome?},
 * stop {stop_reason}, error {message}, git {step, message, files?}.
 */
export const logEntry = z.object({
  seq: z.int(),
  at: z.string(),
  type: z.string(),
  update: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.output<typeof logEntry>;

/** The `execution.updated` event: the record, and after a small batch of entries those entries. */
export const executionEvent = execution.extend({
  log: z.object({ offset: z.int(), entries: z.array(logEntry) }).optional(),
});

export const executionLog = z.object({
  execution_id: z.string(),
  status: runStatus,
  /** The first entry's seq (0-based). */
  offset: z.int(),
  entries: z.array(logEntry),
  /** Ask for this offset next; equal to line_count when everything stored so far was returned. */
  next_offset: z.int(),
  /** Entries stored so far. */
  line_count: z.int(),
  /** True when the execution has finished and no entries follow. */
  complete: z.boolean(),
});
