import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Db } from "@/lib/db/client";
import { vapidSubject } from "@/lib/config";
import { ValidationError } from "@/lib/platform/errors";
import type { ChannelSender, OutgoingNotification } from "@/lib/notifications/channels";
import { checkPushEndpoint } from "@/lib/push/check-endpoint";
import { pushPayload, pushTopic } from "@/lib/push/push-payload";
import { vapidKeys } from "@/lib/push/vapid-keys";

// The `push` channel of a person's notifications (docs/notifications.md, "Browser push"): a Web Push
// message (RFC 8030, encrypted per RFC 8291 and signed with VAPID by the web-push library) to every
// browser the person subscribed. The push service answering 404 or 410 means the browser dropped the
// subscription, so it is forgotten. The delivery fails (and is retried) only when no browser took it
// and one failed; a retry reaches the ones that did under the same Topic, which replaces rather than
// repeats. With no browser left to send to, it is skipped, saying so.

const TTL_SECONDS = 24 * 3600;
export const NO_SUBSCRIPTION = "No browser of this person is subscribed to push";
const TIMEOUT_MS = 10_000;

export function pushSender(db: Db): ChannelSender {
  return {
    // The VAPID keys are made by the server itself, so push needs no setting.
    configured: () => true,
    send: (notification) => sendPush(db, notification),
  };
}

async function sendPush(db: Db, notification: OutgoingNotification) {
  const subscriptions = await db.pushSubscription.findMany({ where: { userId: notification.userId } });
  // Nowhere to send it: the delivery is done, not failed, and says why nothing was sent.
  if (subscriptions.length === 0) return { skipped: NO_SUBSCRIPTION };
  const keys = await vapidKeys(db);
  // Loaded with the first message, not at every server's start.
  const { default: webpush, WebPushError } = await import("web-push");
  const payload = JSON.stringify(await pushPayload(db, notification));
  const errors: string[] = [];
  let delivered = 0;
  for (const subscription of subscriptions) {
    try {
      const target = await checkPushEndpoint(subscription.endpoint);
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: { subject: vapidSubject(), ...keys },
          TTL: TTL_SECONDS,
          topic: pushTopic(notification.idempotencyKey),
          urgency: notification.questionId ? "high" : "normal",
          timeout: TIMEOUT_MS,
          agent: pinnedAgent(target),
        },
      );
      delivered++;
    } catch (error) {
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) {
        await db.pushSubscription.deleteMany({ where: { id: subscription.id } });
        continue;
      }
      errors.push(`${new URL(subscription.endpoint).host}: ${describe(error, WebPushError)}`);
    }
  }
  if (delivered > 0) return;
  // No browser took it: retried when one failed; when each had dropped its subscription, nowhere to send it.
  if (errors.length > 0) throw new Error(errors.join("; ").slice(0, 2000));
  return { skipped: NO_SUBSCRIPTION };
}

/** Connects to the address checked, whatever the endpoint's name resolves to by now (DNS rebinding). */
function pinnedAgent(target: { address: string; family: 4 | 6 }): https.Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  return new https.Agent({ lookup, keepAlive: false });
}

function describe(error: unknown, WebPushError: typeof import("web-push").WebPushError): string {
  if (error instanceof ValidationError) return error.entries.map((entry) => entry.msg).join("; ");
  if (error instanceof WebPushError) return `HTTP ${error.statusCode}${error.body ? ` ${String(error.body).slice(0, 200)}` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
