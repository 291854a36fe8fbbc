import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { deliveriesQuery } from "@/lib/codehost/schemas";
import { recentDeliveries } from "@/lib/codehost/github-settings";

export const GET = withWorkspace({ ownerOnly: true, params: workspaceParams, query: deliveriesQuery }, async ({ db, workspace, query }) =>
  json(await recentDeliveries(db, workspace.id, query.limit)),
);
