import { z } from "zod";
import { columnKey, taskResponse } from "@/lib/tasks/schemas";

// The board's card: the one definition of what GET …/board and a compact column page
// (GET …/board/column/{column}?view=compact) send per task. It is the task record's fields that a
// card shows or the board needs to place, filter and move it, under the same names, so a full
// record (from an event, a write's answer, GET …/tasks/{id}) is a card as well and the board's
// cache takes either. What the card does not show stays with the task: its description, its open
// questions and its runs in full are read by the task dialog (GET …/tasks/{id}) and the run history
// (GET …/tasks/{id}/runs) when they open. The SQL that writes it is cardJson
// (lib/db/task-json-sql.ts); tests/api/contracts.test.ts holds the two to each other.

export const taskCard = taskResponse
  .pick({
    id: true,
    number: true,
    title: true,
    status: true,
    position: true,
    priority: true,
    tags: true,
    project_id: true,
    project_name: true,
    phase_name: true,
    blocked: true,
    open_question_count: true,
    open_blocker_count: true,
    pr_url: true,
    pr_state: true,
    checks: true,
    has_merge_conflict: true,
    latest_run_status: true,
    latest_run_error: true,
    latest_run_activity_at: true,
    latest_run_silence_seconds: true,
    latest_run_waiting_for_runner: true,
    assignees: true,
    due_at: true,
  })
  .describe(
    "A task as its board card shows it. The description, the open questions and the runs are not here: " +
      "GET …/tasks/{task_id} and GET …/tasks/{task_id}/runs have them.",
  );
export type TaskCard = z.infer<typeof taskCard>;

export const paginatedCardsResponse = z.object({
  items: z.array(taskCard),
  total: z.int().describe("Number of tasks in the column."),
  has_more: z.boolean().describe("offset + items.length < total"),
});

export const boardResponse = z.object({
  columns: z.array(
    z.object({
      key: columnKey,
      title: z.string(),
      total: z.int(),
      has_more: z.boolean(),
      items: z.array(taskCard),
    }),
  ),
  cursor: z
    .string()
    .describe("The workspace event log's position this board was read at: open GET …/events?after=<cursor> to miss nothing."),
});
