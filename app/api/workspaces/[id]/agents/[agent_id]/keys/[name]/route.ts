import { json, withWorkspace } from "@/lib/api/handler";
import { agentKeyParams, setAgentKeyBody } from "@/lib/agents/schemas";
import { setAgentKey } from "@/lib/agents/set-agent-key";

// A profile's model key: owners store and remove it (not agents: a key is a person's to give).
const rules = { params: agentKeyParams, ownerOnly: true, humansOnly: "store model keys" } as const;

export const PUT = withWorkspace({ ...rules, body: setAgentKeyBody }, async ({ db, workspace, params, body }) =>
  json(await setAgentKey(db, workspace.id, params.agent_id, params.name, body.value)),
);

export const DELETE = withWorkspace(rules, async ({ db, workspace, params }) =>
  json(await setAgentKey(db, workspace.id, params.agent_id, params.name, null)),
);
