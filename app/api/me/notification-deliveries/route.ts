import { json, withUser } from "@/lib/api/handler";
import { listDeliveriesQuery } from "@/lib/notifications/schemas";
import { listDeliveries } from "@/lib/notifications/list-deliveries";

export const GET = withUser({ query: listDeliveriesQuery }, async ({ db, caller, query }) =>
  json(await listDeliveries(db, caller.userId, query.limit)),
);
