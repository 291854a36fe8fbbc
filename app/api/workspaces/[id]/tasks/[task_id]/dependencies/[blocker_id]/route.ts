import { json, withWorkspace } from "@/lib/api/handler";
import { addDependency } from "@/lib/dependencies/add-dependency";
import { removeDependency } from "@/lib/dependencies/remove-dependency";
import { dependencyParams } from "@/lib/dependencies/schemas";

export const POST = withWorkspace({ params: dependencyParams }, async ({ db, workspace, params }) =>
  json(await addDependency(db, workspace.id, params.task_id, params.blocker_id)),
);

export const DELETE = withWorkspace({ params: dependencyParams }, async ({ db, workspace, params }) =>
  json(await removeDependency(db, workspace.id, params.task_id, params.blocker_id)),
);
