import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { WebhookDelivery } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { findWebhook } from "@/lib/webhooks/find-webhook";
import { nudgeDeliveryWorker } from "@/lib/webhooks/nudge-worker";
import { DELIVERY_STATUS } from "@/lib/webhooks/statuses";
import type { deliveriesQuery, deliveriesResponse, deliveryResponse } from "@/lib/webhooks/schemas";

// An endpoint's deliveries, newest first (ids are UUIDv7: time-ordered), and "Redeliver".

type DeliveryResponse = z.output<typeof deliveryResponse>;

/** One page: `before` is the last id of the previous page; one row more than asked tells whether there are more. */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  webhookId: string,
  query: z.output<typeof deliveriesQuery>,
): Promise<z.output<typeof deliveriesResponse>> {
  await findWebhook(db, workspaceId, webhookId);
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId, ...(query.before ? { id: { lt: query.before } } : {}) },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return { items: rows.slice(0, query.limit).map(serializeDelivery), has_more: rows.length > query.limit };
}

/**
 * Sends a delivery's body again as a new delivery, tried once (no retries) and outside the
 * endpoint's order: the owner asked for it now. The worker sends it; the answer is the pending row.
 */
export async function redeliver(db: Db, workspaceId: string, webhookId: string, deliveryId: string): Promise<DeliveryResponse> {
  const webhook = await findWebhook(db, workspaceId, webhookId);
  const original = await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId } });
  if (!original) throw notFound("Delivery");
  if (original.status === DELIVERY_STATUS.skipped) throw conflict("A gap has no body to send: those events were deleted before delivery");
  if (!webhook.enabled) throw conflict("The webhook is disabled: enable it first, then redeliver");
  const row = await db.webhookDelivery.create({
    data: {
      webhookId,
      eventId: original.eventId,
      eventType: original.eventType,
      status: DELIVERY_STATUS.pending,
      redeliveryOf: original.redeliveryOf ?? original.id,
      requestBody: original.requestBody,
      nextAttemptAt: new Date(),
    },
  });
  nudgeDeliveryWorker();
  return serializeDelivery(row);
}

export function serializeDelivery(row: WebhookDelivery): DeliveryResponse {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId === null ? null : row.eventId.toString(),
    event_type: row.eventType,
    status: row.status as DeliveryResponse["status"],
    redelivery_of: row.redeliveryOf,
    request_body: row.requestBody,
    attempts: row.attempts,
    response_code: row.responseCode,
    duration_ms: row.durationMs,
    error: row.error,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    history: Array.isArray(row.history) ? (row.history as DeliveryResponse["history"]) : [],
  };
}
