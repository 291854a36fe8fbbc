import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { getSlackStatus } from "@/lib/slack/slack-status";

// Owners only: it calls Slack (auth.test) and says how many members Slack can recognise.
export const GET = withWorkspace({ params: workspaceParams, ownerOnly: true }, async ({ db, workspace }) =>
  json(await getSlackStatus(db, workspace.id)),
);
