import type { Db } from "@/lib/db/client";
import type { z } from "zod";
import type { deliveryResponse } from "@/lib/notifications/schemas";

/** The person's newest deliveries on every channel, with their attempts, for Settings → Notifications. */
export async function listDeliveries(db: Db, userId: string, limit: number): Promise<z.output<typeof deliveryResponse>[]> {
  const rows = await db.notificationDelivery.findMany({
    where: { notification: { userId } },
    include: { notification: { select: { title: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((row) => ({
    id: row.id,
    notification_id: row.notificationId,
    title: row.notification.title,
    channel: row.channel as z.output<typeof deliveryResponse>["channel"],
    status: row.status as z.output<typeof deliveryResponse>["status"],
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    last_error: row.lastError,
    sent_at: row.sentAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  }));
}
