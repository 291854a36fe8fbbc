import { z } from "zod";

// A browser's subscription as PushSubscription.toJSON() gives it (the Push API), and the answers a
// notification's action sends back (docs/notifications.md, "Browser push").

const base64url = (what: string, max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, `${what} should be base64url`);

export const pushEndpoint = z
  .string()
  .max(2000)
  .url()
  .refine((value) => value.startsWith("https://"), { message: "The push endpoint must be an https URL" })
  .describe("The push service's URL for this browser (https).");

export const subscribePushBody = z.object({
  endpoint: pushEndpoint,
  expirationTime: z.number().nullable().optional().describe("Ignored: the push service answers 404 or 410 when it ends."),
  keys: z.object({
    p256dh: base64url("keys.p256dh", 200).describe("The browser's P-256 public key."),
    auth: base64url("keys.auth", 100).describe("The browser's auth secret."),
  }),
});
export type SubscribePushBody = z.infer<typeof subscribePushBody>;

export const unsubscribePushBody = z.object({ endpoint: z.string().min(1).max(2000) });

export const pushSubscriptionResponse = z.object({ endpoint: z.string(), created_at: z.string() });

export const pushSubscriptionsResponse = z.object({
  public_key: z.string().describe("The server's VAPID public key: applicationServerKey of PushManager.subscribe()."),
  subscriptions: z.array(pushSubscriptionResponse),
});

export const pushAnswerBody = z.object({
  key: z.string().min(1).max(200).describe("The key an action of the notification carries."),
  answer: z.string().trim().min(1).max(20_000).describe("The option the action stands for."),
});

/** What a notification carries to the service worker (public/sw.js shows it). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  actions: { action: string; title: string; key?: string; answer?: string }[];
}
