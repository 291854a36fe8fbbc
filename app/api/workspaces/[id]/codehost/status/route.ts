import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { codehostStatusOf } from "@/lib/github/connection/connection";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace, role }) =>
  json(await codehostStatusOf(db, workspace.id, { owner: role === "owner" })),
);
