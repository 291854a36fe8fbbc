import { noContent, withUser } from "@/lib/api/handler";
import { notFound } from "@/lib/platform/errors";
import { clientIdParams } from "@/lib/oauth/schemas";
import { disconnectClient } from "@/lib/oauth/disconnect-client";

export const DELETE = withUser({ params: clientIdParams }, async ({ db, caller, params }) => {
  if (!(await disconnectClient(db, caller.userId, params.client_id))) throw notFound("Connected app");
  return noContent();
});
