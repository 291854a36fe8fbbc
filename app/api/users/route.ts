import { json, withUser } from "@/lib/api/handler";
import { createUserBody } from "@/lib/users/schemas";
import { createUser, serializeUser } from "@/lib/users/create-user";

export const GET = withUser({ adminOnly: true }, async ({ db }) => {
  const users = await db.user.findMany({ orderBy: { createdAt: "asc" }, take: 1000 });
  return json(users.map(serializeUser));
});

export const POST = withUser({ adminOnly: true, body: createUserBody }, async ({ db, body }) => json(await createUser(db, body), 201));
