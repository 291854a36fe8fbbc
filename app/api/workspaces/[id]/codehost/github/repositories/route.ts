import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { installationRepositoriesOf } from "@/lib/github/connection/github-install";

export const GET = withWorkspace({ ownerOnly: true, params: workspaceParams }, async ({ db, workspace }) =>
  json(await installationRepositoriesOf(db, workspace.id)),
);
