import type { Db } from "@/lib/db/client";

/** Forgets a subscription of the person's; true when there was one. Another person's endpoint is left alone. */
export async function deletePushSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const { count } = await db.pushSubscription.deleteMany({ where: { userId, endpoint } });
  return count > 0;
}
