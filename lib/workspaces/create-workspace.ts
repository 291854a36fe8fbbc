import type { Db } from "@/lib/db/client";
import { serializeWorkspace } from "@/lib/workspaces/serialize";

export async function createWorkspace(db: Db, ownerId: string, name: string) {
  const row = await db.workspace.create({
    data: { name, memberships: { create: { userId: ownerId, role: "owner" } } },
  });
  return serializeWorkspace(row);
}
