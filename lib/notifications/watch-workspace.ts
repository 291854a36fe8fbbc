import type { Db } from "@/lib/db/client";

// A person who watches a workspace hears of every question asked in it, besides the questions of
// the tasks they are assigned to (docs/notifications.md). It is theirs alone, so it lives on their
// membership and goes with it. A viewer cannot watch: viewers are never asked (the route refuses
// their write).

export async function isWatching(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const row = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { watching: true } });
  return row?.watching ?? false;
}

export async function setWatching(db: Db, workspaceId: string, userId: string, watching: boolean): Promise<{ watching: boolean }> {
  await db.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { watching }, select: { watching: true } });
  return { watching };
}
