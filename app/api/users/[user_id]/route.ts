import { json, withUser } from "@/lib/api/handler";
import { updateUserBody, userParams } from "@/lib/users/schemas";
import { updateUser } from "@/lib/users/update-user";

export const PATCH = withUser({ adminOnly: true, params: userParams, body: updateUserBody }, async ({ db, params, body }) =>
  json(await updateUser(db, params.user_id, body)),
);
