import { json, withWorkspace, withWorkspaceRead } from "@/lib/api/handler";
import { createTask } from "@/lib/tasks/create-task";
import { assignerOf } from "@/lib/tasks/assignees";
import { COLUMN_KEYS } from "@/lib/tasks/columns";
import { taskSearchRead } from "@/lib/tasks/load-tasks";
import { createTaskBody, PEOPLE_ONLY_TASK_FIELDS, taskSearchQuery } from "@/lib/tasks/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

// Tasks by a part of their title (the task dialog's blocker picker; MCP list_tasks reads the same), one statement.
export const GET = withWorkspaceRead({ params: workspaceParams, query: taskSearchQuery }, ({ query }) =>
  taskSearchRead({
    columns: query.column ? [query.column] : COLUMN_KEYS,
    projectId: null,
    search: query.search ?? null,
    limit: query.limit,
    offset: query.offset,
  }),
);

export const POST = withWorkspace(
  { params: workspaceParams, body: createTaskBody, humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  async ({ db, caller, workspace, body }) => json(await createTask(db, workspace.id, body, assignerOf(caller)), 201),
);
