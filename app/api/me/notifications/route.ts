import { json, withUser } from "@/lib/api/handler";
import { listNotificationsQuery } from "@/lib/notifications/schemas";
import { listNotifications } from "@/lib/notifications/list-notifications";

export const GET = withUser({ query: listNotificationsQuery }, async ({ db, caller, query }) =>
  json(await listNotifications(db, caller.userId, query)),
);
