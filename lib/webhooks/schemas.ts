import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { DELIVERABLE_EVENT_TYPES } from "@/lib/events/event-types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { ALL_EVENTS, DELIVERY_STATUSES } from "@/lib/webhooks/statuses";

export const DELIVERY_PAGE = { default: 20, max: 100 };

export const webhookParams = workspaceParams.extend({ webhook_id: z.string() });
export const deliveryParams = webhookParams.extend({ delivery_id: z.string() });

const url = z
  .string()
  .trim()
  .max(2000)
  .refine(isHttpUrl, { message: "Input should be a valid http or https URL" })
  .describe(
    "Where events are POSTed: an http or https URL. Private and loopback addresses are refused at delivery time (docs/webhooks.md).",
  );

const events = z
  .array(z.enum([ALL_EVENTS, ...DELIVERABLE_EVENT_TYPES]))
  .min(1)
  .max(DELIVERABLE_EVENT_TYPES.length + 1)
  .describe(
    `Event types to send (${DELIVERABLE_EVENT_TYPES.join(", ")}), or ["*"] for all, including types added later. ` +
      "The live log (execution.log) is for event streams only.",
  );

const secret = z
  .string()
  .min(16)
  .max(200)
  .describe("Signs each delivery (X-Taskboard-Signature-256). Write-only: never returned. Generated when left out on create.");

const description = z.string().trim().max(500);

export const createWebhookBody = z.object({
  url,
  events,
  secret: secret.optional(),
  enabled: z.boolean().default(true),
  description: description.default(""),
});

export const updateWebhookBody = z.object({
  url: url.optional(),
  events: events.optional(),
  secret: secret.optional().describe("A new secret: deliveries are signed with it from now on."),
  enabled: z.boolean().optional().describe("Enabling clears `disabled_reason`; delivery resumes after the last event delivered."),
  description: description.optional(),
});

export const webhookResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z
    .string()
    .nullable()
    .describe("Why the server disabled the endpoint (every attempt failed for the retry window); null otherwise."),
  secret_hint: z.string().describe("The secret's last four characters, to tell secrets apart."),
  last_event_id: z.string().describe("The newest event already handed to delivery (the endpoint's cursor in the event log)."),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const createdWebhookResponse = webhookResponse.extend({
  secret: z.string().optional().describe("Only when the server generated the secret: shown this once, store it now."),
});

export const deliveriesQuery = z.object({
  limit: queryInt(z.int().min(1).max(DELIVERY_PAGE.max)).default(DELIVERY_PAGE.default),
  before: z.string().min(1).max(100).optional().describe("A delivery id: the page after it (older). Leave out for the newest."),
});

const attempt = z.object({
  at: z.string(),
  response_code: z.int().nullable(),
  duration_ms: z.int(),
  error: z.string().nullable(),
});

export const deliveryResponse = z.object({
  id: z.string().describe("Also the X-Taskboard-Delivery header of its requests."),
  webhook_id: z.string(),
  event_id: z.string().nullable().describe("The event's id in the log (the body's `id`); null for a gap."),
  event_type: z.string().nullable(),
  status: z.enum(DELIVERY_STATUSES),
  redelivery_of: z.string().nullable().describe("The delivery this one re-sends (redeliveries are tried once)."),
  request_body: z.string().describe("The exact body sent, which the signature covers."),
  attempts: z.int(),
  response_code: z.int().nullable().describe("The last attempt's HTTP status; null when no answer came."),
  duration_ms: z.int().nullable().describe("The last attempt's duration."),
  error: z.string().nullable().describe("Why the last attempt failed, or what a gap lost."),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  created_at: z.string(),
  history: z.array(attempt).describe("The attempts, oldest first (the last 50)."),
});

export const deliveriesResponse = z.object({
  items: z.array(deliveryResponse).describe("Newest first."),
  has_more: z.boolean().describe("More, older deliveries: ask again with `before` = the last item's id."),
});

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
  } catch {
    return false;
  }
}
