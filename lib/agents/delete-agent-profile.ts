import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";

export async function deleteAgentProfile(db: Db, workspaceId: string, agentId: string) {
  const { count } = await db.agentProfile.deleteMany({ where: { id: agentId, workspaceId } });
  if (count === 0) throw notFound("Agent");
}
