import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { getWorkspace } from "@/lib/workspaces/workspaces";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace, role }) =>
  json(await getWorkspace(db, workspace.id, role)),
);
