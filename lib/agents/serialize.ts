import type { z } from "zod";
import type { AgentProfile } from "@/lib/generated/prisma/client";
import type { agentResponse, createAgentBody } from "@/lib/agents/schemas";
import { profileReadiness } from "@/lib/agents/readiness";

// An agent profile between its row and the API: serializeAgentProfile out, toColumns in.

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
    stored_keys: row.keyNames,
    readiness: profileReadiness(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toColumns<T extends Partial<z.output<typeof createAgentBody>>>(input: T) {
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
