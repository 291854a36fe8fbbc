import { noContent, withUser } from "@/lib/api/handler";
import { apiKeyParams } from "@/lib/auth/schemas";
import { deleteApiKey } from "@/lib/auth/api-keys";

export const DELETE = withUser({ params: apiKeyParams }, async ({ db, caller, params }) => {
  await deleteApiKey(db, caller.userId, params.key_id);
  return noContent();
});
