import type { Db } from "@/lib/db/client";
import type { Webhook } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";

export async function findWebhook(db: Db, workspaceId: string, webhookId: string): Promise<Webhook> {
  const row = await db.webhook.findFirst({ where: { id: webhookId, workspaceId } });
  if (!row) throw notFound("Webhook");
  return row;
}
