import type { NotificationChannel } from "@/lib/notifications/kinds";

// The senders of the channels besides the inbox. In-app needs none: the notification's insert is
// its delivery. A sender for push, email or Slack is registered here by the engineer who writes
// it (issue #38); until one is, that channel is not configured and no delivery of it is created.

export interface OutgoingNotification {
  /** Unique per notification and channel: a sender hands it to its service so a retry is never a second message. */
  idempotencyKey: string;
  userId: string;
  workspaceId: string;
  kind: string;
  title: string;
  body: string;
  taskId: string | null;
  questionId: string | null;
}

/** One attempt: resolves when the service took the message, throws (with the reason) when not. */
export interface ChannelSender {
  /** Whether this server has what the channel needs (keys, SMTP_URL, a Slack token…). */
  configured: () => boolean;
  /**
   * Resolves when sent; with `{ skipped }` when there was nowhere to send it (a person with no
   * subscribed browser), so the delivery says so instead of "sent". Throws to be retried.
   */
  send: (notification: OutgoingNotification) => Promise<void | { skipped: string }>;
}

type ExternalChannel = Exclude<NotificationChannel, "in_app">;

// On globalThis: Next bundles routes and instrumentation (lib/server/start.ts, which registers the
// senders) separately, and a route (GET /api/me/notification-settings) must see the same senders.
const state = globalThis as typeof globalThis & { __taskboardChannelSenders?: Map<ExternalChannel, ChannelSender> };
const senders = (state.__taskboardChannelSenders ??= new Map<ExternalChannel, ChannelSender>());

/** Registers the sender of a channel (at start-up, or by a test). */
export function registerChannelSender(channel: ExternalChannel, sender: ChannelSender): void {
  senders.set(channel, sender);
}

export function channelSender(channel: string): ChannelSender | undefined {
  return senders.get(channel as ExternalChannel);
}

/** The channels a delivery can be made on now: the inbox, and each registered, configured sender. */
export function configuredChannels(): NotificationChannel[] {
  return ["in_app", ...[...senders].filter(([, sender]) => sender.configured()).map(([channel]) => channel)];
}
