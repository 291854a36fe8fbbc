import type { Db } from "@/lib/db/client";
import { serializeAgentProfile } from "@/lib/agents/serialize";

const LIST_MAX = 100;

export async function listAgentProfiles(db: Db, workspaceId: string) {
  const rows = await db.agentProfile.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: LIST_MAX });
  return rows.map(serializeAgentProfile);
}
