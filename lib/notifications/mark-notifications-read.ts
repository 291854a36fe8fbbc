import type { Db } from "@/lib/db/client";
import type { z } from "zod";
import type { markReadBody } from "@/lib/notifications/schemas";
import { unreadAndTotal } from "@/lib/notifications/list-notifications";

/** Marks the person's own notifications read (ids of others' are ignored, so ids reveal nothing). */
export async function markNotificationsRead(db: Db, userId: string, body: z.output<typeof markReadBody>) {
  const { count } = await db.notification.updateMany({
    where: { userId, readAt: null, ...(body.all ? {} : { id: { in: body.ids ?? [] } }) },
    data: { readAt: new Date() },
  });
  return { marked: count, unread: (await unreadAndTotal(db, userId)).unread };
}
