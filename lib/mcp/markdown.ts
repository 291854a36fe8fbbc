import type { z } from "zod";
import { COLUMNS } from "@/lib/tasks/columns";
import type { boardResponse, TaskCard } from "@/lib/tasks/card-schemas";
import type { TaskResponse } from "@/lib/tasks/schemas";

// The MCP resources: the board and a task as markdown, for an agent to read into its context.

type Board = z.output<typeof boardResponse>;

export function boardMarkdown(workspaceName: string, board: Board): string {
  const lines = [`# ${workspaceName}: board`, ""];
  for (const column of board.columns) {
    lines.push(`## ${column.title} (${column.total})`, "");
    if (column.items.length === 0) lines.push("_No tasks._");
    for (const task of column.items) lines.push(`- ${taskLine(task)}`);
    if (column.has_more)
      lines.push(`- … ${column.total - column.items.length} more (list_tasks with column "${column.key}" pages through them)`);
    lines.push("");
  }
  return lines.join("\n");
}

export function taskMarkdown(task: TaskResponse): string {
  const column = COLUMNS.find((c) => c.key === task.status)?.title ?? task.status;
  const facts = [
    `- id: \`${task.id}\``,
    `- column: ${column} (\`${task.status}\`)`,
    `- priority: ${task.priority}`,
    task.project_name && `- project: ${task.project_name}${task.phase_name ? `, phase ${task.phase}: ${task.phase_name}` : ""}`,
    task.tags.length > 0 && `- tags: ${task.tags.join(", ")}`,
    task.pr_url && `- pull request: ${task.pr_url}${task.has_merge_conflict ? " (merge conflict)" : ""}`,
    task.blocked && "- blocked",
    task.assignees.length > 0 && `- assigned to: ${task.assignees.map((a) => `${a.name} (${a.kind})`).join(", ")}`,
    task.due_at && `- due ${task.due_at}`,
    `- created ${task.created_at}, updated ${task.updated_at}${task.done_at ? `, done ${task.done_at}` : ""}`,
  ].filter(Boolean);
  const lines = [`# ${task.title}`, "", ...facts, "", "## Description", "", task.description.trim() || "_None._", ""];
  if (task.questions.length > 0) {
    lines.push("## Open questions", "");
    for (const question of task.questions) {
      const options = question.options ? ` (options: ${question.options.join(" / ")})` : "";
      lines.push(`- \`${question.id}\`: ${question.content}${options}`);
    }
    lines.push("");
  }
  if (task.task_runs.length > 0) {
    lines.push("## Recent runs", "");
    for (const run of task.task_runs) {
      const error = run.error_message ? `: ${run.error_message}` : "";
      lines.push(`- attempt ${run.attempt_number}, ${run.trigger}, ${run.status}${error} (started ${run.started_at})`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

function taskLine(task: TaskCard): string {
  const extras = [
    task.priority,
    task.project_name,
    task.blocked ? "blocked" : null,
    task.latest_run_status && `run ${task.latest_run_status}`,
  ];
  return `${task.title} (\`${task.id}\`; ${extras.filter(Boolean).join(", ")})`;
}
