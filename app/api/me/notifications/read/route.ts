import { json, withUser } from "@/lib/api/handler";
import { markReadBody } from "@/lib/notifications/schemas";
import { markNotificationsRead } from "@/lib/notifications/mark-notifications-read";

export const POST = withUser({ body: markReadBody }, async ({ db, caller, body }) =>
  json(await markNotificationsRead(db, caller.userId, body)),
);
