import { json, withUser } from "@/lib/api/handler";
import { notificationSettings } from "@/lib/notifications/schemas";
import { getNotificationSettings, putNotificationSettings } from "@/lib/notifications/settings";

export const GET = withUser({}, async ({ db, caller }) => json(await getNotificationSettings(db, caller.userId)));

export const PUT = withUser({ body: notificationSettings }, async ({ db, caller, body }) =>
  json(await putNotificationSettings(db, caller.userId, body)),
);
