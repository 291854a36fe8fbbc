import { json, withUser } from "@/lib/api/handler";
import { notFound } from "@/lib/api/errors";
import { serializeUser } from "@/lib/users/create-user";

export const GET = withUser({ agentAllowed: true }, async ({ db, caller }) => {
  const user = await db.user.findUnique({ where: { id: caller.userId } });
  if (!user) throw notFound("User");
  return json(serializeUser(user));
});
