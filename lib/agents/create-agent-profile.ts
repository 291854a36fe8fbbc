import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { createAgentBody } from "@/lib/agents/schemas";
import { serializeAgentProfile, toColumns } from "@/lib/agents/serialize";

// At most one profile of a workspace is the default: setting one clears the others in the same
// transaction (a concurrent second setter waits on the first's row locks, then clears it).

export async function createAgentProfile(db: Db, workspaceId: string, input: z.output<typeof createAgentBody>) {
  const row = await db.$transaction(async (tx) => {
    if (input.is_default) await tx.agentProfile.updateMany({ where: { workspaceId, isDefault: true }, data: { isDefault: false } });
    return tx.agentProfile.create({ data: { workspaceId, ...toColumns(input) } });
  });
  return serializeAgentProfile(row);
}
