import type { Db } from "@/lib/db/client";

export async function listMembers(db: Db, workspaceId: string) {
  const rows = await db.membership.findMany({
    where: { workspaceId },
    include: { user: { select: { username: true, displayName: true } } },
    orderBy: { createdAt: "asc" },
    take: 1000,
  });
  return rows.map((row) => ({
    user_id: row.userId,
    username: row.user.username,
    display_name: row.user.displayName,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  }));
}
