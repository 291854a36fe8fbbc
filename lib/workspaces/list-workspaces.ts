import type { Db } from "@/lib/db/client";
import { serializeWorkspace } from "@/lib/workspaces/serialize";

export async function listWorkspaces(db: Db, userId: string) {
  const rows = await db.membership.findMany({
    where: { userId },
    include: { workspace: true },
    orderBy: { createdAt: "asc" },
    take: 1000,
  });
  return rows.map((row) => ({ ...serializeWorkspace(row.workspace), role: row.role }));
}
