import type { Db } from "@/lib/db/client";
import { findWebhook } from "@/lib/webhooks/find-webhook";
import { type WebhookResponse, serializeWebhook } from "@/lib/webhooks/serialize";

export async function getWebhook(db: Db, workspaceId: string, webhookId: string): Promise<WebhookResponse> {
  return serializeWebhook(await findWebhook(db, workspaceId, webhookId));
}
