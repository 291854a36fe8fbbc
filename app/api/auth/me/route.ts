import { json, withUser } from "@/lib/api/handler";
import { getUser } from "@/lib/users/list-users";

export const GET = withUser({ agentAllowed: true }, async ({ db, caller }) => json(await getUser(db, caller.userId)));
