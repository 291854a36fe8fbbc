import crypto from "node:crypto";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Webhook } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { seal, unseal } from "@/lib/crypto/seal";
import { ALL_EVENTS } from "@/lib/webhooks/statuses";
import { nudgeDeliveryWorker } from "@/lib/webhooks/nudge-worker";
import type { createdWebhookResponse, createWebhookBody, updateWebhookBody, webhookResponse } from "@/lib/webhooks/schemas";

// Owners' webhook endpoints (docs/webhooks.md). The secret is write-only: stored sealed
// (lib/crypto/seal.ts) to sign with, never returned, except once when the server generated it.

type WebhookResponse = z.output<typeof webhookResponse>;

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

/** Oldest first; a workspace has few endpoints, so no paging. */
export async function listWebhooks(db: Db, workspaceId: string): Promise<WebhookResponse[]> {
  const rows = await db.webhook.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 200 });
  return rows.map(serializeWebhook);
}

export async function getWebhook(db: Db, workspaceId: string, webhookId: string): Promise<WebhookResponse> {
  return serializeWebhook(await findWebhook(db, workspaceId, webhookId));
}

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

/** Its deliveries go with it (cascade). */
export async function deleteWebhook(db: Db, workspaceId: string, webhookId: string): Promise<void> {
  const { count } = await db.webhook.deleteMany({ where: { id: webhookId, workspaceId } });
  if (count === 0) throw notFound("Webhook");
}

export async function findWebhook(db: Db, workspaceId: string, webhookId: string): Promise<Webhook> {
  const row = await db.webhook.findFirst({ where: { id: webhookId, workspaceId } });
  if (!row) throw notFound("Webhook");
  return row;
}

export function serializeWebhook(row: Webhook): WebhookResponse {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    secret_hint: secretHint(row.secret),
    last_event_id: row.cursor.toString(),
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The last four characters, or "…?" for a secret sealed under a key the server no longer has. */
function secretHint(stored: string): string {
  try {
    return `…${unseal(stored).slice(-4)}`;
  } catch {
    return "…?";
  }
}

/** "*" anywhere means all; otherwise each type once, in the order given. */
function normalizeEvents(events: string[]): string[] {
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}
