import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { updateWebhookBody, webhookParams } from "@/lib/webhooks/schemas";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { getWebhook } from "@/lib/webhooks/get-webhook";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

export const GET = withWorkspace({ ownerOnly: true, params: webhookParams }, async ({ db, workspace, params }) =>
  json(await getWebhook(db, workspace.id, params.webhook_id)),
);

export const PATCH = withWorkspace(
  { ownerOnly: true, params: webhookParams, body: updateWebhookBody },
  async ({ db, workspace, params, body }) => json(await updateWebhook(db, workspace.id, params.webhook_id, body)),
);

export const DELETE = withWorkspace({ ownerOnly: true, params: webhookParams }, async ({ db, workspace, params }) => {
  await deleteWebhook(db, workspace.id, params.webhook_id);
  return noContent();
});
