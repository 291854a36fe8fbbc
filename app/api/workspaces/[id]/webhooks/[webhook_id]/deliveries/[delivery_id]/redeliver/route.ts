import { json, withWorkspace } from "@/lib/api/handler";
import { deliveryParams } from "@/lib/webhooks/schemas";
import { redeliver } from "@/lib/webhooks/deliveries";

// 202: the delivery worker sends it (on this instance, at once); the answer is the new pending delivery.
export const POST = withWorkspace({ ownerOnly: true, params: deliveryParams }, async ({ db, workspace, params }) =>
  json(await redeliver(db, workspace.id, params.webhook_id, params.delivery_id), 202),
);
