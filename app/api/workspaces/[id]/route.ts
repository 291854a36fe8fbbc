import { json, withWorkspace } from "@/lib/api/handler";
import { updateWorkspaceBody, workspaceParams } from "@/lib/workspaces/schemas";
import { getWorkspace } from "@/lib/workspaces/get-workspace";
import { updateWorkspace } from "@/lib/workspaces/update-workspace";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace, role }) =>
  json(await getWorkspace(db, workspace.id, role)),
);

export const PATCH = withWorkspace(
  { params: workspaceParams, body: updateWorkspaceBody, ownerOnly: true },
  async ({ db, workspace, role, body }) => json(await updateWorkspace(db, workspace.id, role, body)),
);
