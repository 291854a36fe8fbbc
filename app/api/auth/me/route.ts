import { json, withUser } from "@/lib/api/handler";
import { getUser } from "@/lib/users/list-users";
import { updateMeBody } from "@/lib/users/schemas";
import { updateUser } from "@/lib/users/update-user";

export const GET = withUser({ agentAllowed: true }, async ({ db, caller }) => json(await getUser(db, caller.userId)));

// A person changes their own display name and email address; an agent token is refused (withUser's default).
export const PATCH = withUser({ body: updateMeBody }, async ({ db, caller, body }) =>
  json(await updateUser(db, caller, caller.userId, { display_name: body.display_name, email: body.email })),
);
