// The notifications' vocabulary, shared by the server and the browser (no zod here, like
// lib/events/event-types.ts). docs/notifications.md says who hears each kind.

/** What a notification is about; each is a row of the preferences. */
export const NOTIFICATION_KINDS = ["question", "run_finished", "mention", "assignment", "pull_request"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Where a notification can reach a person. In-app is the inbox itself; the others need a sender (channels.ts). */
export const NOTIFICATION_CHANNELS = ["in_app", "push", "email", "slack"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const DELIVERY_STATUSES = ["pending", "sent", "failed", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const KIND_LABELS: Record<NotificationKind, string> = {
  question: "Questions for you",
  run_finished: "Runs you started or are assigned to finished",
  mention: "Mentions in comments",
  assignment: "Tasks assigned to you",
  pull_request: "Pull requests merged or failing checks",
};
