import { json, withWorkspace } from "@/lib/api/handler";
import { deliveriesQuery, webhookParams } from "@/lib/webhooks/schemas";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const GET = withWorkspace(
  { ownerOnly: true, params: webhookParams, query: deliveriesQuery },
  async ({ db, workspace, params, query }) => json(await listDeliveries(db, workspace.id, params.webhook_id, query)),
);
