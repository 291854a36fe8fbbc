import { json, withWorkspace } from "@/lib/api/handler";
import { createTask } from "@/lib/tasks/create-task";
import { createTaskBody } from "@/lib/tasks/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

export const POST = withWorkspace({ params: workspaceParams, body: createTaskBody }, async ({ db, workspace, body }) =>
  json(await createTask(db, workspace.id, body), 201),
);
