import { json, withUser } from "@/lib/api/handler";
import { updateUserBody, userParams } from "@/lib/users/schemas";
import { updateUser } from "@/lib/users/update-user";

export const PATCH = withUser({ adminOnly: true, params: userParams, body: updateUserBody }, async ({ db, caller, params, body }) =>
  json(await updateUser(db, caller, params.user_id, body)),
);
