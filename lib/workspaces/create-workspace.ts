import type { Db } from "@/lib/db/client";
import { serializeWorkspace } from "@/lib/workspaces/serialize";

export async function createWorkspace(db: Db, ownerId: string, name: string) {
  const row = await db.workspace.create({
    // The event head from the start: each write then locks it and appends in one statement
    // (lib/events/record-events.ts).
    data: { name, memberships: { create: { userId: ownerId, role: "owner" } }, eventHead: { create: {} } },
  });
  return serializeWorkspace(row);
}
