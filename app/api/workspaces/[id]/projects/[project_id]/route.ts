import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { projectParams, updateProjectBody } from "@/lib/projects/schemas";
import { deleteProject } from "@/lib/projects/delete-project";
import { getProject } from "@/lib/projects/get-project";
import { updateProject } from "@/lib/projects/update-project";

export const GET = withWorkspace({ params: projectParams }, async ({ db, workspace, params }) =>
  json(await getProject(db, workspace.id, params.project_id)),
);

export const PATCH = withWorkspace({ params: projectParams, body: updateProjectBody }, async ({ db, workspace, params, body }) =>
  json(await updateProject(db, workspace.id, params.project_id, body)),
);

export const DELETE = withWorkspace({ params: projectParams }, async ({ db, workspace, params }) => {
  await deleteProject(db, workspace.id, params.project_id);
  return noContent();
});
