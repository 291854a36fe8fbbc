import type { Db } from "@/lib/db/client";
import { vapidKeys } from "@/lib/push/vapid-keys";

/** The person's subscribed browsers and the key a browser subscribes with. */
export async function listPushSubscriptions(db: Db, userId: string) {
  const [keys, rows] = await Promise.all([
    vapidKeys(db),
    db.pushSubscription.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, select: { endpoint: true, createdAt: true } }),
  ]);
  return {
    public_key: keys.publicKey,
    subscriptions: rows.map((row) => ({ endpoint: row.endpoint, created_at: row.createdAt.toISOString() })),
  };
}
