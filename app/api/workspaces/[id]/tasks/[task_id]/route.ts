import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { notFound } from "@/lib/platform/errors";
import { deleteTask } from "@/lib/tasks/delete-task";
import { loadTask } from "@/lib/tasks/load-tasks";
import { PEOPLE_ONLY_TASK_FIELDS, taskParams, updateTaskBody } from "@/lib/tasks/schemas";
import { updateTask } from "@/lib/tasks/update-task";
import { assignerOf } from "@/lib/tasks/assignees";

export const GET = withWorkspace({ params: taskParams }, async ({ sql, workspace, params }) => {
  const task = await loadTask(sql, workspace.id, params.task_id);
  if (!task) throw notFound("Task");
  return json(task);
});

export const PATCH = withWorkspace(
  { params: taskParams, body: updateTaskBody, humansOnlyFields: PEOPLE_ONLY_TASK_FIELDS },
  async ({ db, caller, workspace, params, body }) => json(await updateTask(db, workspace.id, params.task_id, body, {}, assignerOf(caller))),
);

export const DELETE = withWorkspace({ params: taskParams }, async ({ db, workspace, params }) => {
  await deleteTask(db, workspace.id, params.task_id);
  return noContent();
});
