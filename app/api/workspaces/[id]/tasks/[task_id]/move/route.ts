import { json, withWorkspace } from "@/lib/api/handler";
import { moveTask } from "@/lib/tasks/move-task";
import { moveTaskBody, taskParams } from "@/lib/tasks/schemas";

export const POST = withWorkspace({ params: taskParams, body: moveTaskBody }, async ({ db, workspace, params, body }) =>
  json(await moveTask(db, workspace.id, params.task_id, body)),
);
