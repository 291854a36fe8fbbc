import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import {
  createdWebhookResponse,
  createWebhookBody,
  deliveriesQuery,
  deliveriesResponse,
  deliveryParams,
  deliveryResponse,
  updateWebhookBody,
  webhookParams,
  webhookResponse,
} from "@/lib/webhooks/schemas";

// Outbound webhooks (docs/webhooks.md): owners only; agent tokens are refused.

const ownersOnly = { 403: { description: "Not an owner of the workspace (agent tokens never are)" } };
const webhookNotFound = { 404: { description: "Workspace or webhook not found" } };

export const webhookOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/webhooks",
    operationId: "listWebhooks",
    summary: "The workspace's webhook endpoints, oldest first (owners)",
    tags: ["webhooks"],
    params: workspaceParams,
    responses: { 200: { description: "Endpoints (secrets never included)", schema: z.array(webhookResponse) }, ...ownersOnly },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/webhooks",
    operationId: "createWebhook",
    summary: "Register an endpoint; it receives the events recorded from now on (owners)",
    tags: ["webhooks"],
    params: workspaceParams,
    body: createWebhookBody,
    responses: { 201: { description: "The endpoint; `secret` only when generated", schema: createdWebhookResponse }, ...ownersOnly },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/webhooks/{webhook_id}",
    operationId: "getWebhook",
    summary: "One endpoint, with why the server disabled it if it did (owners)",
    tags: ["webhooks"],
    params: webhookParams,
    responses: { 200: { description: "The endpoint", schema: webhookResponse }, ...ownersOnly, ...webhookNotFound },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/webhooks/{webhook_id}",
    operationId: "updateWebhook",
    summary: "Change an endpoint: URL, events, secret, description, enabled (owners)",
    tags: ["webhooks"],
    params: webhookParams,
    body: updateWebhookBody,
    responses: { 200: { description: "The endpoint", schema: webhookResponse }, ...ownersOnly, ...webhookNotFound },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/webhooks/{webhook_id}",
    operationId: "deleteWebhook",
    summary: "Delete an endpoint and its deliveries (owners)",
    tags: ["webhooks"],
    params: webhookParams,
    responses: { 204: { description: "Deleted" }, ...ownersOnly, ...webhookNotFound },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "An endpoint's deliveries, newest first, with their attempts (owners)",
    tags: ["webhooks"],
    params: webhookParams,
    query: deliveriesQuery,
    responses: { 200: { description: "A page of deliveries", schema: deliveriesResponse }, ...ownersOnly, ...webhookNotFound },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhookDelivery",
    summary: "Send a delivery's body again, once, as a new delivery (owners)",
    tags: ["webhooks"],
    params: deliveryParams,
    responses: {
      202: { description: "The new delivery, pending", schema: deliveryResponse },
      ...ownersOnly,
      404: { description: "Workspace, webhook or delivery not found" },
      409: { description: "The webhook is disabled, or the delivery is a gap with nothing to send" },
    },
  },
];
