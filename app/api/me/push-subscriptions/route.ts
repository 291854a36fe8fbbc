import { json, noContent, withUser } from "@/lib/api/handler";
import { notFound } from "@/lib/platform/errors";
import { subscribePushBody, unsubscribePushBody } from "@/lib/push/schemas";
import { savePushSubscription } from "@/lib/push/save-subscription";
import { deletePushSubscription } from "@/lib/push/delete-subscription";
import { listPushSubscriptions } from "@/lib/push/list-subscriptions";

// The signed-in person's browsers that receive push notifications (docs/notifications.md, "Browser push").

export const GET = withUser({}, async ({ db, caller }) => json(await listPushSubscriptions(db, caller.userId)));

export const POST = withUser({ body: subscribePushBody }, async ({ db, caller, body }) =>
  json(await savePushSubscription(db, caller.userId, body), 201),
);

export const DELETE = withUser({ body: unsubscribePushBody }, async ({ db, caller, body }) => {
  if (!(await deletePushSubscription(db, caller.userId, body.endpoint))) throw notFound("Push subscription");
  return noContent();
});
