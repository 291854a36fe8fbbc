import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { pushOperations } from "@/lib/openapi/operations/push";
import {
  deliveryResponse,
  listDeliveriesQuery,
  listNotificationsQuery,
  markReadBody,
  markReadResponse,
  notificationPage,
  notificationSettings,
  notificationSettingsResponse,
  watchBody,
  watchResponse,
} from "@/lib/notifications/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The caller's own notifications (docs/notifications.md). People only: agent tokens get 403.
export const notificationOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/me/notifications",
    operationId: "listNotifications",
    summary: "Your notifications, newest first, paged (limit, offset); unread=true for the unread ones; with the unread count",
    tags: ["notifications"],
    query: listNotificationsQuery,
    responses: { 200: { description: "A page of notifications", schema: notificationPage } },
  },
  {
    method: "post",
    path: "/api/me/notifications/read",
    operationId: "markNotificationsRead",
    summary: "Mark notifications read: {ids: [...]} (yours; others' are ignored) or {all: true}",
    tags: ["notifications"],
    body: markReadBody,
    responses: { 200: { description: "How many were marked, and how many stay unread", schema: markReadResponse } },
  },
  {
    method: "get",
    path: "/api/me/notification-settings",
    operationId: "getNotificationSettings",
    summary: "Your notification preferences (per kind and channel, quiet hours, digest) and the channels this server can send on",
    tags: ["notifications"],
    responses: { 200: { description: "Preferences", schema: notificationSettingsResponse } },
  },
  {
    method: "put",
    path: "/api/me/notification-settings",
    operationId: "putNotificationSettings",
    summary: "Replace your notification preferences (every kind and channel is given)",
    tags: ["notifications"],
    body: notificationSettings,
    responses: { 200: { description: "Preferences", schema: notificationSettingsResponse } },
  },
  {
    method: "get",
    path: "/api/me/notification-deliveries",
    operationId: "listNotificationDeliveries",
    summary: "Your newest deliveries on every channel, with their attempts and last error",
    tags: ["notifications"],
    query: listDeliveriesQuery,
    responses: { 200: { description: "Deliveries, newest first", schema: z.array(deliveryResponse) } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/watch",
    operationId: "getWorkspaceWatch",
    summary: "Whether you watch this workspace: hear of every question asked in it, not only your tasks'",
    tags: ["notifications"],
    params: workspaceParams,
    responses: { 200: { description: "Your watch", schema: watchResponse } },
  },
  {
    method: "put",
    path: "/api/workspaces/{id}/watch",
    operationId: "putWorkspaceWatch",
    summary: "Watch this workspace's questions, or stop (owners and members; a viewer is never asked, so 403)",
    tags: ["notifications"],
    params: workspaceParams,
    body: watchBody,
    responses: { 200: { description: "Your watch", schema: watchResponse } },
  },
  // Browser push's routes: its subscriptions are the person's own, like the preferences above.
  ...pushOperations,
];
