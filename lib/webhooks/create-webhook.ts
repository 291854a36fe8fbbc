import crypto from "node:crypto";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { seal } from "@/lib/crypto/seal";
import { ALL_EVENTS } from "@/lib/webhooks/statuses";
import { nudgeDeliveryWorker } from "@/lib/webhooks/nudge-worker";
import type { createdWebhookResponse, createWebhookBody } from "@/lib/webhooks/schemas";
import { serializeWebhook } from "@/lib/webhooks/serialize";

// Owners' webhook endpoints (docs/webhooks.md). The secret is write-only: stored sealed
// (lib/crypto/seal.ts) to sign with, never returned, except once when the server generated it.

/** A new endpoint receives the events recorded from now on: its cursor starts at the log's head. */
export async function createWebhook(
  db: Db,
  workspaceId: string,
  createdBy: string,
  input: z.output<typeof createWebhookBody>,
): Promise<z.output<typeof createdWebhookResponse>> {
  const generated = input.secret === undefined ? `whsec_${crypto.randomBytes(24).toString("base64url")}` : null;
  const head = await db.workspaceEventHead.findUnique({ where: { workspaceId }, select: { lastId: true } });
  const row = await db.webhook.create({
    data: {
      workspaceId,
      createdBy,
      url: input.url,
      events: normalizeEvents(input.events),
      secret: seal(input.secret ?? generated!),
      enabled: input.enabled,
      description: input.description,
      cursor: head?.lastId ?? BigInt(0),
    },
  });
  if (row.enabled) nudgeDeliveryWorker();
  return generated ? { ...serializeWebhook(row), secret: generated } : serializeWebhook(row);
}

/** "*" anywhere means all; otherwise each type once, in the order given. */
export function normalizeEvents(events: string[]): string[] {
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}
