import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";

/** Its deliveries go with it (cascade). */
export async function deleteWebhook(db: Db, workspaceId: string, webhookId: string): Promise<void> {
  const { count } = await db.webhook.deleteMany({ where: { id: webhookId, workspaceId } });
  if (count === 0) throw notFound("Webhook");
}
