import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createWebhookBody } from "@/lib/webhooks/schemas";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";

// Webhooks send the whole workspace's activity to a URL of the owner's choosing: owners only,
// and never agent tokens (ownerOnly refuses them: they act as members at most).
export const GET = withWorkspace({ ownerOnly: true, params: workspaceParams }, async ({ db, workspace }) =>
  json(await listWebhooks(db, workspace.id)),
);

export const POST = withWorkspace(
  { ownerOnly: true, params: workspaceParams, body: createWebhookBody },
  async ({ db, workspace, caller, body }) => json(await createWebhook(db, workspace.id, caller.userId, body), 201),
);
