import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createProjectBody, listProjectsQuery } from "@/lib/projects/schemas";
import { createProject } from "@/lib/projects/create-project";
import { listProjects } from "@/lib/projects/list-projects";

export const GET = withWorkspace({ params: workspaceParams, query: listProjectsQuery }, async ({ db, workspace, query }) =>
  json(await listProjects(db, workspace.id, query)),
);

export const POST = withWorkspace({ params: workspaceParams, body: createProjectBody }, async ({ db, workspace, body }) =>
  json(await createProject(db, workspace.id, body), 201),
);
