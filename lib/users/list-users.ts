import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { serializeUser } from "@/lib/users/create-user";

/** Every user, oldest first (admins only; the route checks). */
export async function listUsers(db: Db) {
  const users = await db.user.findMany({ orderBy: { createdAt: "asc" }, take: 1000 });
  return users.map(serializeUser);
}

export async function getUser(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  return serializeUser(user);
}
