import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import type { updateAgentBody } from "@/lib/agents/schemas";
import { serializeAgentProfile, toColumns } from "@/lib/agents/serialize";

// At most one profile of a workspace is the default: setting one clears the others in the same
// transaction (a concurrent second setter waits on the first's row locks, then clears it).

export async function updateAgentProfile(db: Db, workspaceId: string, agentId: string, input: z.output<typeof updateAgentBody>) {
  const row = await db.$transaction(async (tx) => {
    if (input.is_default) {
      await tx.agentProfile.updateMany({ where: { workspaceId, isDefault: true, NOT: { id: agentId } }, data: { isDefault: false } });
    }
    const { count } = await tx.agentProfile.updateMany({ where: { id: agentId, workspaceId }, data: toColumns(input) });
    if (count === 0) throw notFound("Agent");
    return tx.agentProfile.findUniqueOrThrow({ where: { id: agentId } });
  });
  return serializeAgentProfile(row);
}
