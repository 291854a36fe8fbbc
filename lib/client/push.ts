import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import { notificationKeys } from "@/lib/client/query-keys";
import type { pushSubscriptionsResponse } from "@/lib/push/schemas";

// Browser push on this device (docs/notifications.md, "Browser push"): whether this browser can,
// may and does receive the server's push messages, and turning that on or off. The service worker
// (public/sw.js) is registered by components/service-worker.tsx; subscribing waits for it.

export type PushSubscriptions = z.output<typeof pushSubscriptionsResponse>;

/** What this browser can do: no Push API, the person said no, or a subscription (or none yet). */
export type PushDeviceState = "unsupported" | "insecure" | "denied" | "subscribed" | "off";

function supported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

async function deviceState(subscriptions: PushSubscriptions): Promise<PushDeviceState> {
  if (typeof window !== "undefined" && !window.isSecureContext) return "insecure";
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const mine = await currentSubscription();
  return mine && subscriptions.subscriptions.some((s) => s.endpoint === mine.endpoint) ? "subscribed" : "off";
}

/** The person's subscriptions, the server's public key, and this browser's state. */
export function usePushDevice() {
  return useQuery({
    queryKey: notificationKeys.push(),
    queryFn: async () => {
      const subscriptions = await api<PushSubscriptions>("/api/me/push-subscriptions");
      return { ...subscriptions, state: await deviceState(subscriptions) };
    },
  });
}

/** Asks for permission, subscribes with the server's key and hands the subscription to the server. */
export function useEnablePush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (publicKey: string) => {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") throw new Error("This browser did not allow notifications, so push stays off.");
      const registration = await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: fromBase64url(publicKey),
        }));
      await api("/api/me/push-subscriptions", {
        method: "POST",
        json: subscription.toJSON(),
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.push() }),
  });
}

/** Ends this browser's subscription, at the push service and on the server. */
export function useDisablePush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const subscription = await currentSubscription();
      if (!subscription) return;
      await api("/api/me/push-subscriptions", {
        method: "DELETE",
        json: { endpoint: subscription.endpoint },
      }).catch(() => undefined);
      await subscription.unsubscribe();
    },
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.push() }),
  });
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
