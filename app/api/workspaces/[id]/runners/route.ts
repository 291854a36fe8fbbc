import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { workspaceRunnersBody } from "@/lib/dispatch/schemas";
import { getWorkspaceRunners, setWorkspaceRunners } from "@/lib/dispatch/workspace-runners";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace }) =>
  json(await getWorkspaceRunners(db, workspace.id)),
);

export const PUT = withWorkspace(
  { params: workspaceParams, body: workspaceRunnersBody, ownerOnly: true, humansOnly: "choose the workspace's runners" },
  async ({ db, workspace, body }) => json(await setWorkspaceRunners(db, workspace.id, body)),
);
