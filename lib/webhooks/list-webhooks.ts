import type { Db } from "@/lib/db/client";
import { type WebhookResponse, serializeWebhook } from "@/lib/webhooks/serialize";

/** Oldest first; a workspace has few endpoints, so no paging. */
export async function listWebhooks(db: Db, workspaceId: string): Promise<WebhookResponse[]> {
  const rows = await db.webhook.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 200 });
  return rows.map(serializeWebhook);
}
