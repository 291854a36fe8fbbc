import { z } from "zod";
import { commentBody } from "@/lib/comments/schemas";
import { createQuestionBody } from "@/lib/questions/schemas";
import { taskCard } from "@/lib/tasks/card-schemas";
import { memberRole, workspace } from "@/lib/workspaces/schemas";
import { MAX_WAIT_SECONDS } from "@/lib/questions/wait-for-answer";
import { PROJECT_LIST_LIMIT, projectResponse } from "@/lib/projects/schemas";
import { PROJECT_STATUSES } from "@/lib/projects/statuses";
import { startRunBody } from "@/lib/runs/schemas";
import { columnKey, createTaskBody, moveTaskBody, taskResponse, updateTaskBody } from "@/lib/tasks/schemas";

// The tools' arguments: the HTTP API's own request schemas (same names, limits and defaults) plus
// the ids that the HTTP API takes from the path. The SDK validates with these and publishes them as
// the tools' JSON Schemas.

const workspaceId = z
  .string()
  .optional()
  .describe("The workspace to act in (list_workspaces lists yours). Optional with an agent token: its own workspace.");
const taskId = z.string().describe("A task of the workspace.");

export const listWorkspacesArgs = z.object({});

export const listTasksArgs = z.object({
  workspace_id: workspaceId,
  column: columnKey.optional().describe("Only this column; every column, in board order, when left out."),
  project_id: z.string().optional().describe("Only tasks of this project."),
  search: z.string().trim().min(1).max(200).optional().describe("Only tasks whose title contains this text (case-insensitive)."),
  limit: z.int().min(1).max(100).default(20).describe("Page size, 1 to 100."),
  offset: z.int().min(0).max(100_000).default(0).describe("Number of matching tasks to skip."),
});

export const getTaskArgs = z.object({ workspace_id: workspaceId, task_id: taskId });

export const createTaskArgs = createTaskBody.extend({ workspace_id: workspaceId });

export const updateTaskArgs = updateTaskBody.extend({ workspace_id: workspaceId, task_id: taskId });

export const moveTaskArgs = moveTaskBody.extend({ workspace_id: workspaceId, task_id: taskId });

export const askQuestionArgs = createQuestionBody.extend({
  workspace_id: workspaceId,
  wait_seconds: z
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .default(0)
    .describe(`Wait up to this many seconds (at most ${MAX_WAIT_SECONDS}) for a person's answer before returning.`),
});

export const getAnswerArgs = z.object({ workspace_id: workspaceId, question_id: z.string().describe("The id ask_question returned.") });

export const listProjectsArgs = z.object({
  workspace_id: workspaceId,
  status: z.enum(PROJECT_STATUSES).optional(),
  limit: z.int().min(1).max(PROJECT_LIST_LIMIT.max).default(PROJECT_LIST_LIMIT.default),
});

export const startRunArgs = z.object({
  workspace_id: workspaceId,
  task_id: taskId,
  ...startRunBody.unwrap().pick({ instructions: true, agent_id: true, force: true }).shape,
});

export const getRunLogArgs = z.object({
  workspace_id: workspaceId,
  execution_id: z.string().describe("The id start_run returned."),
  offset: z.int().min(0).default(0).describe("First line (0-based); pass the previous answer's next_offset to follow the log."),
  limit: z.int().min(1).max(10_000).default(1000),
});

export const commentOnTaskArgs = commentBody.extend({ workspace_id: workspaceId, task_id: taskId });

// The tools' results (`structuredContent`, published as each tool's outputSchema): the HTTP API's
// response schemas. A list is wrapped in an object, because structured content is always one.
export const workspacesResult = z.object({ workspaces: z.array(workspace.extend({ role: memberRole })) });

export const taskListResult = z.object({
  items: z
    .array(z.union([taskCard, taskResponse]))
    .describe("With `column` alone, the column's cards (as the board shows them); otherwise whole tasks."),
  total: z.int().optional().describe("With `column` alone: the number of tasks in the column."),
  has_more: z.boolean(),
});

export const projectsResult = z.object({ projects: z.array(projectResponse) });
