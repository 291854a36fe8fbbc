import type { z } from "zod";
import type { Webhook } from "@/lib/generated/prisma/client";
import { unseal } from "@/lib/crypto/seal";
import type { webhookResponse } from "@/lib/webhooks/schemas";

// A webhook endpoint as the API shows it: never its secret, only a hint of it.

export type WebhookResponse = z.output<typeof webhookResponse>;

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
