import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { serializeAgentProfile } from "@/lib/agents/serialize";

export async function getAgentProfile(db: Db, workspaceId: string, agentId: string) {
  const row = await db.agentProfile.findFirst({ where: { id: agentId, workspaceId } });
  if (!row) throw notFound("Agent");
  return serializeAgentProfile(row);
}
