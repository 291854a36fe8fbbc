import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { cronProblem, isTimeZone } from "@/lib/schedules/next-run";

export const SCHEDULE_LIST_LIMIT = { default: 100, max: 500 };
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A schedule keeps starting runs as the person who made it (or triggered it), so agent tokens may
 * not write or trigger one (`humansOnly` of those routes; the words of their 403).
 */
export const SCHEDULES_REFUSED = "create, change, delete or trigger schedules";

export const scheduleParams = workspaceParams.extend({
  ref: z.string().describe("The schedule's id or its slug."),
});

const name = z.string().trim().min(1).max(200);
const slug = z.string().max(100).regex(SLUG_PATTERN).describe("Unique in the workspace; lower-case letters, digits and single dashes.");
const cron = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .superRefine((value, ctx) => {
    const problem = cronShapeProblem(value) ?? cronProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: `Invalid cron expression: ${problem}` });
  })
  .describe('A cron expression: 5 fields, or 6 with seconds first (e.g. "0 9 * * 1-5").');
const timezone = z
  .string()
  .refine(isTimeZone, { message: "Unknown time zone (expected an IANA name such as Europe/Berlin)" })
  .describe("IANA time zone the cron expression is read in.");
const defaultInstructions = z.string().max(100_000);
const taskId = z.string().min(1).nullable().describe("Run on this task; null makes a new task per trigger.");
const agentId = z.string().min(1).nullable().describe("The agent profile its runs use; null: the workspace's default profile.");

export const createScheduleBody = z.object({
  name,
  slug: slug.optional().describe("Derived from the name when absent (kebab-case, made unique)."),
  cron,
  timezone: timezone.default("UTC"),
  enabled: z.boolean().default(true),
  default_instructions: defaultInstructions.default(""),
  task_id: taskId.default(null),
  agent_id: agentId.default(null),
});

export const updateScheduleBody = z.object({
  name: name.optional(),
  slug: slug.optional(),
  cron: cron.optional(),
  timezone: timezone.optional(),
  enabled: z.boolean().optional(),
  default_instructions: defaultInstructions.optional(),
  task_id: taskId.optional(),
  agent_id: agentId.optional(),
});

export const listSchedulesQuery = z.object({
  limit: queryInt(z.int().min(1).max(SCHEDULE_LIST_LIMIT.max).default(SCHEDULE_LIST_LIMIT.default)),
});

export const scheduleResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  slug: z.string(),
  cron: z.string(),
  timezone: z.string(),
  enabled: z.boolean(),
  default_instructions: z.string(),
  task_id: z.string().nullable(),
  agent_id: z.string().nullable(),
  next_run_at: z.string().nullable().describe("Null while disabled."),
  last_triggered_at: z.string().nullable(),
  last_error: z
    .string()
    .nullable()
    .describe("Why the last occurrence started no run (e.g. its creator left the workspace); null when it did."),
  created_by: z.string().nullable().describe("The user whose schedule this is: scheduled runs act as that user."),
  created_at: z.string(),
  updated_at: z.string(),
});

export const scheduleDetailResponse = scheduleResponse.extend({
  next_runs: z.array(z.string()).describe("The next three run times (empty while disabled)."),
});

export const defaultInstructionsResponse = z.object({ instructions: z.string() });

export const triggerResponse = z.object({
  schedule_id: z.string(),
  task_id: z.string(),
  task_number: z.int().describe("The task's number in its workspace (#12), for saying which task the run is on."),
  task_title: z.string(),
  task_run_id: z.string(),
  attempt_number: z.int().describe("The run's attempt number on its task."),
  execution_id: z.string(),
});

/** croner also takes ISO dates ("run once"); schedules are recurring, so only cron fields or @nicknames. */
function cronShapeProblem(value: string): string | null {
  if (value.startsWith("@")) return null;
  const fields = value.split(/\s+/).length;
  return fields >= 5 && fields <= 7 ? null : `expected 5 or 6 fields, got ${fields}`;
}
