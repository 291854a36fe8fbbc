import { json, withUser } from "@/lib/api/handler";
import { createApiKeyBody } from "@/lib/auth/schemas";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";

export const GET = withUser({}, async ({ db, caller }) => json(await listApiKeys(db, caller.userId)));

export const POST = withUser({ body: createApiKeyBody }, async ({ db, caller, body }) =>
  json(await createApiKey(db, caller.userId, body.name, body.expires_in_days), 201),
);
