import { z } from "zod";
import { floatNumber, INT32_MAX, queryInt } from "@/lib/platform/schema-primitives";
import { questionResponse } from "@/lib/questions/schemas";
import { COLUMN_KEYS, PRIORITIES, SORT_FIELDS } from "@/lib/tasks/columns";
import { assigneeFilter, assignees, dueAt, taskAssignee } from "@/lib/tasks/assignee-schemas";
import { boardFilters } from "@/lib/tasks/filter-schemas";
import { RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/statuses";
import { MAX_POSITION } from "@/lib/tasks/positions";
import { runUsage } from "@/lib/runner-protocol";

// Request and response shapes of the task and board operations; the routes validate with these and
// lib/openapi/operations/tasks.ts documents them.

export const columnKey = z.enum(COLUMN_KEYS).describe("Board column key; a task's status is the key of the column it is in.");

export const priority = z.enum(PRIORITIES).describe("p0 is the most urgent, p4 the least.");

// ---------------------------------------------------------------- requests

export const taskParams = z.object({ id: z.string(), task_id: z.string() });
export const columnParams = z.object({ id: z.string(), column: columnKey });

const pageLimit = queryInt(z.int().min(1).max(100)).default(20).describe("Page size, 1 to 100.");

/** Full task records per page at most; compact cards (lib/tasks/card-schemas.ts) go to MAX_CARD_PAGE. */
export const MAX_TASK_PAGE = 100;
/** Compact cards per page (per column, for the board) at most: 4,000 cards are 8 pages of these. */
export const MAX_CARD_PAGE = 500;

/** `full`: the interface's task records, with questions and runs; `compact`: the board's cards. */
export const TASK_VIEWS = ["full", "compact"] as const;
export type TaskView = (typeof TASK_VIEWS)[number];

const searchFilter = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .describe("Only tasks whose title or description contains these words (any case), or whose number it is (`#12` or `12`).");

export const columnQuery = z
  .object({
    limit: queryInt(z.int().min(1).max(MAX_CARD_PAGE))
      .default(20)
      .describe(`Page size: 1 to ${MAX_TASK_PAGE}, or to ${MAX_CARD_PAGE} with view=compact.`),
    offset: queryInt(z.int().min(0).max(INT32_MAX)).default(0).describe("Number of tasks of the column to skip."),
    sort_by: z
      .enum(SORT_FIELDS)
      .default("position")
      .describe(
        "Sort key; ties are broken by task id, so pages never overlap. With `due_at`, tasks without one come last in both directions.",
      ),
    sort_dir: z.enum(["asc", "desc"]).default("asc"),
    view: z
      .enum(TASK_VIEWS)
      .default("full")
      .describe(
        "`full` (the default): task records with their open questions and 10 newest runs. `compact`: the board's cards " +
          "(TaskCard): what a card shows, with the questions and runs as counts and the newest run's status.",
      ),
    assignee: assigneeFilter,
    q: searchFilter,
    ...boardFilters,
  })
  // Full records stay at the interface's page size; only the light cards come in bigger pages.
  .superRefine((query, ctx) => {
    if (query.view === "full" && query.limit > MAX_TASK_PAGE) {
      ctx.addIssue({
        code: "too_big",
        origin: "number",
        maximum: MAX_TASK_PAGE,
        inclusive: true,
        input: query.limit,
        path: ["limit"],
        message: `Too big: expected number to be <=${MAX_TASK_PAGE}`,
      });
    }
  });

export const taskSearchQuery = z.object({
  search: z.string().trim().min(1).max(200).optional().describe("A case-insensitive part of the title."),
  column: columnKey.optional().describe("Only this column; all columns in board order when left out."),
  limit: pageLimit,
  offset: queryInt(z.int().min(0).max(10_000)).default(0).describe("Number of matches to skip."),
});

export const boardQuery = z.object({
  limit: queryInt(z.int().min(1).max(MAX_CARD_PAGE)).default(20).describe(`Cards per column in the first page, 1 to ${MAX_CARD_PAGE}.`),
  assignee: assigneeFilter,
  q: searchFilter,
  ...boardFilters,
});

const title = z.string().trim().min(1).max(500);
const description = z.string().max(100_000);
const tags = z.array(z.string().max(50)).max(20);
const projectId = z.string().nullable().describe("A project of this workspace (404 Project not found otherwise).");
const phase = z
  .int()
  .min(1)
  .max(INT32_MAX)
  .nullable()
  .describe("1-based index into the project's phases; with a project set it must not exceed their number (422 otherwise).");
const branch = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[A-Za-z0-9._/-]+(?<![./])$/, "A git branch name")
  .nullable()
  .describe("The git branch agents work on; set it for a PR branch made elsewhere, or leave it to the first run (tb/<number>-<slug>).");
// Shown as a link on the card: http(s) only, never javascript: or data: URLs.
const prUrl = z
  .url({ protocol: /^https?$/, error: "Input should be an http or https URL" })
  .max(2000)
  .nullable()
  .describe("The task's pull request: an http or https URL.");

/**
 * Fields an agent token may not send: the App pushes a task's commits to its `branch`, and a
 * `pr_url` links the task to a pull request (whose head branch the webhooks then follow), so an
 * agent setting either could have its work pushed onto someone else's branch.
 */
export const PEOPLE_ONLY_TASK_FIELDS = ["branch", "pr_url"] as const;

export const createTaskBody = z.object({
  title,
  description: description.default(""),
  status: columnKey.default("backlog"),
  priority: priority.default("p2"),
  tags: tags.default([]),
  project_id: projectId.optional(),
  phase: phase.optional(),
  pr_url: prUrl.optional(),
  assignees: assignees.default([]),
  due_at: dueAt.default(null),
});

export const updateTaskBody = z.object({
  title: title.optional(),
  description: description.optional(),
  status: columnKey
    .optional()
    .describe(
      "Moving to another column puts the task at the end of it unless `position` is given; entering `done` sets done_at, leaving it clears it.",
    ),
  priority: priority.optional(),
  tags: tags.optional(),
  project_id: projectId.optional(),
  phase: phase.optional(),
  pr_url: prUrl.optional(),
  branch: branch.optional(),
  assignees: assignees.optional(),
  due_at: dueAt.optional(),
  position: floatNumber()
    .min(-MAX_POSITION)
    .max(MAX_POSITION)
    .optional()
    .describe("Exact position in the column; 409 if another task holds it. Prefer the move operation."),
  has_merge_conflict: z.boolean().optional(),
  blocked: z
    .boolean()
    .optional()
    .describe("Marks the task blocked by hand (`blocked` in responses is also true while it has an open question)."),
});

export const moveTaskBody = z.object({
  column: columnKey.describe("The column the task lands in (may be its current one)."),
  after_id: z
    .string()
    .nullable()
    .optional()
    .describe("The task the moved one lands directly after, i.e. the one shown just ABOVE it. Must be in `column` (409 otherwise)."),
  before_id: z
    .string()
    .nullable()
    .optional()
    .describe(
      "The task the moved one lands directly before, i.e. the one shown just BELOW it. Must be in `column`, and when " +
        "after_id is given too the two must be adjacent there (409 otherwise: the client's view is stale). " +
        "With neither anchor the task goes to the end of the column; with one, directly next to it.",
    ),
});

// ---------------------------------------------------------------- responses

// Each record has this one schema: its serializer returns z.output of it, the SQL that writes it
// (load-tasks.ts, the task_board_extras migration) is checked against it by tests/api/contracts.test.ts,
// and the browser's types are inferred from it. No defaults here: a field the server forgets must fail
// that check rather than be filled in.

export const runStatus = z.enum(RUN_STATUSES);
export const runTrigger = z.enum(RUN_TRIGGERS);

/** Why a queued run is not being taken (docs/runners.md); the SQL function taskboard_waiting_for_runner writes it. */
export const WAITING_REASONS = ["none_online", "all_busy", "no_matching_labels", "workspace_limit"] as const;
export const waitingForRunner = z
  .object({
    reason: z.enum(WAITING_REASONS),
    message: z.string().describe('In words, e.g. "Waiting for a runner: none is online".'),
  })
  .nullable()
  .describe("While queued: why no online runner can take the run (null when one can, and once it is claimed).");
export type WaitingForRunner = z.output<typeof waitingForRunner>;

export const taskRunResponse = z.object({
  id: z.string(),
  task_id: z.string(),
  session_id: z.string().nullable(),
  attempt_number: z.int(),
  status: runStatus,
  exit_code: z.int().nullable(),
  error_message: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  trigger: runTrigger,
  agent_id: z.string().nullable().describe("The agent profile the run used; null for AGENT_COMMAND or the demo agent."),
  agent_name: z.string().nullable().describe('That profile\'s name when the run started ("AGENT_COMMAND" or "Demo agent" without one).'),
  usage: runUsage.nullable().describe("Tokens and cost as the agent reported them; null when it reported none (never estimated)."),
  model: z.string().nullable().describe("The model the agent said it used (its ACP session configuration); null when it did not say."),
  no_output: z.boolean().describe("True when the run succeeded with no message, no tool call and no change."),
  commit_sha: z.string().nullable().describe("The task branch's commit after the run; null without a repository or before the run ends."),
  files_changed: z.int().nullable().describe("Files the branch changed against its base (where it left the default branch)."),
  lines_added: z.int().nullable(),
  lines_removed: z.int().nullable(),
});
export type TaskRunResponse = z.output<typeof taskRunResponse>;

export const taskResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  number: z.int().describe("Per workspace: 1, 2, 3… in creation order, never reused (shown as #N)."),
  branch: z.string().nullable().describe("The git branch agents work on, once a run or a person set it."),
  title: z.string(),
  description: z.string(),
  status: columnKey,
  position: z.number(),
  priority,
  tags: z.array(z.string()),
  pr_url: z.string().nullable(),
  has_merge_conflict: z.boolean(),
  pr_number: z.int().nullable().describe("The linked pull request's number (set from GitHub webhooks)."),
  pr_state: z.enum(["open", "draft", "merged", "closed"]).nullable().describe("The linked pull request's state."),
  pr_head_sha: z.string().nullable().describe("The commit at the head of the linked pull request."),
  checks: z
    .enum(["pending", "success", "failure"])
    .nullable()
    .describe("All check runs of the pull request's head commit: any failed → failure, else any unfinished → pending."),
  project_id: z.string().nullable(),
  phase: z.int().nullable(),
  blocked: z.boolean().describe("Marked blocked, or has an open question."),
  project_name: z.string().nullable(),
  phase_name: z.string().nullable(),
  questions: z.array(questionResponse).describe("The task's open questions."),
  open_question_count: z.int().describe("How many open questions the task has (the length of `questions`)."),
  task_runs: z.array(taskRunResponse).describe("Newest first, at most 10."),
  latest_run_status: runStatus.nullable(),
  latest_run_error: z.string().nullable(),
  latest_run_trigger: runTrigger.nullable(),
  latest_run_activity_at: z
    .string()
    .nullable()
    .optional()
    .describe("While the latest run is running: when its agent last sent anything (its start if nothing yet); else null."),
  latest_run_silence_seconds: z
    .int()
    .nullable()
    .optional()
    .describe('While the latest run is running: AGENT_SILENCE_SECONDS, after which its card says "no output for N min".'),
  latest_run_waiting_for_runner: waitingForRunner.optional(),
  blocked_by: z.array(z.string()).describe("Ids of the tasks this one waits for (its blockers), oldest dependency first."),
  blocks: z.array(z.string()).describe("Ids of the tasks that wait for this one (its dependants), oldest dependency first."),
  open_blocker_count: z.int().describe('How many of its blockers are not done; the card shows "blocked by N" while it is above 0.'),
  assignees: z.array(taskAssignee).describe("Who the task belongs to, in the order they were given."),
  due_at: z.string().nullable().describe("When the task is due (ISO 8601, UTC), or null."),
  created_at: z.string(),
  updated_at: z.string(),
  done_at: z.string().nullable(),
});
export type TaskResponse = z.infer<typeof taskResponse>;

export const taskSearchResponse = z.object({
  items: z.array(taskResponse),
  has_more: z.boolean().describe("More matches follow this page."),
});

export const paginatedTasksResponse = z.object({
  items: z.array(taskResponse),
  total: z.int().describe("Number of tasks in the column."),
  has_more: z.boolean().describe("offset + items.length < total"),
});
