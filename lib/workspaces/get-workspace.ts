import type { Db } from "@/lib/db/client";
import type { MemberRole } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { serializeWorkspace } from "@/lib/workspaces/serialize";

/** The workspace as its member sees it, with that member's role. */
export async function getWorkspace(db: Db, workspaceId: string, role: MemberRole) {
  const row = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!row) throw notFound("Workspace");
  return { ...serializeWorkspace(row), role };
}
