import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { seal } from "@/lib/crypto/seal";
import { nudgeDeliveryWorker } from "@/lib/webhooks/nudge-worker";
import type { updateWebhookBody } from "@/lib/webhooks/schemas";
import { normalizeEvents } from "@/lib/webhooks/create-webhook";
import { findWebhook } from "@/lib/webhooks/find-webhook";
import { serializeWebhook } from "@/lib/webhooks/serialize";

/** Enabling clears the reason the server disabled it; delivery resumes after the last event handed over. */
export async function updateWebhook(db: Db, workspaceId: string, webhookId: string, input: z.output<typeof updateWebhookBody>) {
  await findWebhook(db, workspaceId, webhookId);
  const row = await db.webhook.update({
    where: { id: webhookId },
    data: {
      url: input.url,
      events: input.events && normalizeEvents(input.events),
      secret: input.secret === undefined ? undefined : seal(input.secret),
      description: input.description,
      ...(input.enabled === undefined ? {} : { enabled: input.enabled, disabledReason: null }),
    },
  });
  if (row.enabled) nudgeDeliveryWorker();
  return serializeWebhook(row);
}
