import { z } from "zod";
import { floatNumber, INT32_MAX, queryBool, queryInt } from "@/lib/api/validation";
import { runStatus, taskRunResponse } from "@/lib/tasks/schemas";

export const taskParams = z.object({ id: z.string(), task_id: z.string() });
export const executionParams = z.object({ id: z.string(), execution_id: z.string() });

export const listRunsQuery = z.object({
  limit: queryInt(z.int().min(1).max(100)).default(50),
});

/** No body, or `{}`, runs the task's own title and description as instructions. */
export const startRunBody = z.object({ instructions: z.string().max(100_000).nullish() }).optional();

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
});

export const execution = z.object({
  id: z.string(),
  workspace_id: z.string(),
  task_id: z.string(),
  task_run_id: z.string(),
  session_name: z.string(),
  status: runStatus,
  runner_pid: z.int().nullable(),
  exit_code: z.int().nullable(),
  error_message: z.string().nullable(),
  line_count: z.int(),
  last_activity_at: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration: floatNumber().nullable(),
  keep_status: z.boolean(),
  report: z.string().nullable(),
});

export type ExecutionResponse = z.output<typeof execution>;

/** The `execution.updated` event: the record, and after a small batch of output its lines. */
export const executionEvent = execution.extend({
  log: z.object({ offset: z.int(), lines: z.array(z.string()) }).optional(),
});

export const executionLog = z.object({
  execution_id: z.string(),
  status: runStatus,
  /** The first line returned (0-based). */
  offset: z.int(),
  lines: z.array(z.string()),
  /** Ask for this offset next; equal to line_count when everything stored so far was returned. */
  next_offset: z.int(),
  line_count: z.int(),
  /** True when the execution has finished and no lines follow. */
  complete: z.boolean(),
});
