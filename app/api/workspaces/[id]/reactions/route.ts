import { json, withWorkspace } from "@/lib/api/handler";
import { listReactionStates } from "@/lib/reactions/list-reaction-states";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The reactions' progress and failures (docs/architecture.md, "Reactions"): owners only, like the
// webhooks whose mechanism they share; agent tokens are refused.
export const GET = withWorkspace({ ownerOnly: true, params: workspaceParams }, async ({ db, workspace }) =>
  json(await listReactionStates(db, workspace.id)),
);
