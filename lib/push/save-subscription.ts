import type { Db } from "@/lib/db/client";
import { checkPushEndpoint } from "@/lib/push/check-endpoint";
import type { SubscribePushBody } from "@/lib/push/schemas";

/**
 * Stores a browser's subscription for the person. An endpoint belongs to one browser, so one
 * subscribed again (after a sign-in as someone else on the same device) moves to this person.
 */
export async function savePushSubscription(db: Db, userId: string, body: SubscribePushBody) {
  await checkPushEndpoint(body.endpoint);
  const data = { userId, p256dh: body.keys.p256dh, auth: body.keys.auth };
  const row = await db.pushSubscription.upsert({
    where: { endpoint: body.endpoint },
    create: { endpoint: body.endpoint, ...data },
    update: data,
    select: { endpoint: true, createdAt: true },
  });
  return { endpoint: row.endpoint, created_at: row.createdAt.toISOString() };
}
