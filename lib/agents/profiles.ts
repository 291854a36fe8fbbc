import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { AgentProfile } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import type { agentResponse, createAgentBody, updateAgentBody } from "@/lib/agents/schemas";

// Agent profiles of a workspace. At most one is the default: setting one clears the others in the
// same transaction (a concurrent second setter waits on the first's row locks, then clears it).

const LIST_MAX = 100;

export async function listAgentProfiles(db: Db, workspaceId: string) {
  const rows = await db.agentProfile.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: LIST_MAX });
  return rows.map(serializeAgentProfile);
}

export async function getAgentProfile(db: Db, workspaceId: string, agentId: string) {
  const row = await db.agentProfile.findFirst({ where: { id: agentId, workspaceId } });
  if (!row) throw notFound("Agent");
  return serializeAgentProfile(row);
}

export async function createAgentProfile(db: Db, workspaceId: string, input: z.output<typeof createAgentBody>) {
  const row = await db.$transaction(async (tx) => {
    if (input.is_default) await tx.agentProfile.updateMany({ where: { workspaceId, isDefault: true }, data: { isDefault: false } });
    return tx.agentProfile.create({ data: { workspaceId, ...toColumns(input) } });
  });
  return serializeAgentProfile(row);
}

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

export async function deleteAgentProfile(db: Db, workspaceId: string, agentId: string) {
  const { count } = await db.agentProfile.deleteMany({ where: { id: agentId, workspaceId } });
  if (count === 0) throw notFound("Agent");
}

export function serializeAgentProfile(row: AgentProfile): z.output<typeof agentResponse> {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    kind: row.kind as z.output<typeof agentResponse>["kind"],
    command: row.command,
    args: row.args,
    env_passthrough: row.envPassthrough,
    preset: row.preset,
    model: row.model,
    system_prompt: row.systemPrompt,
    network_allow: row.networkAllow,
    network: row.network as z.output<typeof agentResponse>["network"],
    labels: row.labels,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toColumns<T extends Partial<z.output<typeof createAgentBody>>>(input: T) {
  return {
    name: input.name as T["name"],
    kind: input.kind as T["kind"],
    command: input.command as T["command"],
    args: input.args as T["args"],
    envPassthrough: input.env_passthrough as T["env_passthrough"],
    preset: input.preset as T["preset"],
    model: input.model as T["model"],
    systemPrompt: input.system_prompt as T["system_prompt"],
    networkAllow: input.network_allow as T["network_allow"],
    network: input.network as T["network"],
    labels: input.labels as T["labels"],
    isDefault: input.is_default as T["is_default"],
  };
}
