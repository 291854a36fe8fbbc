import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import { notificationKeys, questionKeys } from "@/lib/client/query-keys";
import type { deliveryResponse, notificationPage, notificationSettings, notificationSettingsResponse } from "@/lib/notifications/schemas";

// The signed-in person's notifications (docs/notifications.md). The event stream is per workspace
// and the inbox spans them all, so the bell polls: its count every POLL_MS while the page is open,
// and at once when the window regains focus.

export type NotificationPage = z.output<typeof notificationPage>;
export type Notification = NotificationPage["items"][number];
export type NotificationSettings = z.output<typeof notificationSettings>;
export type NotificationSettingsState = z.output<typeof notificationSettingsResponse>;
export type Delivery = z.output<typeof deliveryResponse>;

export const POLL_MS = 10_000;
export const INBOX_PAGE = 20;

/** The unread count (the bell's), from a one-item page. */
export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: () => api<NotificationPage>("/api/me/notifications?unread=true&limit=1"),
    select: (page) => page.unread,
    refetchInterval: POLL_MS,
  });
}

/** One page of the inbox, newest first. */
export function useInbox(offset: number, unreadOnly: boolean, enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.page(offset, unreadOnly),
    queryFn: () => api<NotificationPage>(`/api/me/notifications?limit=${INBOX_PAGE}&offset=${offset}${unreadOnly ? "&unread=true" : ""}`),
    placeholderData: keepPreviousData,
    refetchInterval: enabled ? POLL_MS : false,
    enabled,
  });
}

/** Marks some (ids) or all read; the bell and the inbox are read again. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) =>
      api<{ marked: number; unread: number }>("/api/me/notifications/read", { method: "POST", json: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** Answers a notification's question from the inbox (POST …/answer: recorded as answered via the board). */
export function useAnswerFromInbox() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ notification, answer }: { notification: Notification; answer: string }) => {
      await api(`/api/workspaces/${notification.workspace_id}/questions/${notification.question_id}/answer`, {
        method: "POST",
        json: { answer },
      });
      await api("/api/me/notifications/read", { method: "POST", json: { ids: [notification.id] } });
    },
    onSettled: (_data, _error, { notification }) => {
      client.invalidateQueries({ queryKey: notificationKeys.all });
      client.invalidateQueries({ queryKey: questionKeys.all(notification.workspace_id) });
    },
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: () => api<NotificationSettingsState>("/api/me/notification-settings"),
  });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) =>
      api<NotificationSettingsState>("/api/me/notification-settings", { method: "PUT", json: settings }),
    onSuccess: (saved) => client.setQueryData(notificationKeys.settings(), saved),
  });
}

export function useDeliveries() {
  return useQuery({
    queryKey: notificationKeys.deliveries(),
    queryFn: () => api<Delivery[]>("/api/me/notification-deliveries?limit=20"),
  });
}
