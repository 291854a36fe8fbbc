import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { hashPassword } from "@/lib/auth/password";
import { serializeUser } from "@/lib/users/create-user";

export async function updateUser(db: Db, userId: string, input: { password?: string; is_admin?: boolean; disabled?: boolean }) {
  const existing = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!existing) throw notFound("User");
  const row = await db.user.update({
    where: { id: userId },
    data: {
      isAdmin: input.is_admin,
      disabled: input.disabled,
      passwordHash: input.password ? await hashPassword(input.password) : undefined,
    },
  });
  return serializeUser(row);
}
