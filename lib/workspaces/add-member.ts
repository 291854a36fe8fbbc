import type { Db } from "@/lib/db/client";
import type { MemberRole } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/platform/errors";

export async function addMember(db: Db, workspaceId: string, username: string, role: MemberRole) {
  const user = await db.user.findUnique({ where: { username }, select: { id: true, username: true, displayName: true } });
  if (!user) throw notFound("User");
  try {
    const row = await db.membership.create({ data: { workspaceId, userId: user.id, role } });
    return {
      user_id: user.id,
      username: user.username,
      display_name: user.displayName,
      role: row.role,
      created_at: row.createdAt.toISOString(),
    };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw conflict(`${username} is already a member`);
    throw error;
  }
}
