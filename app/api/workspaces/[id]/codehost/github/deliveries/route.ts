import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { deliveriesQuery } from "@/lib/github/connection/schemas";
import { recentDeliveries } from "@/lib/github/connection/github-settings";

export const GET = withWorkspace({ ownerOnly: true, params: workspaceParams, query: deliveriesQuery }, async ({ db, workspace, query }) =>
  json(await recentDeliveries(db, workspace.id, query.limit)),
);
