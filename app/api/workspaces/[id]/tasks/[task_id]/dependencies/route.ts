import { json, withWorkspace } from "@/lib/api/handler";
import { listDependencies } from "@/lib/dependencies/list-dependencies";
import { taskParams } from "@/lib/tasks/schemas";

export const GET = withWorkspace({ params: taskParams }, async ({ db, workspace, params }) =>
  json(await listDependencies(db, workspace.id, params.task_id)),
);
