import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { forbidden } from "@/lib/platform/errors";
import { agentParams, updateAgentBody } from "@/lib/agents/schemas";
import { deleteAgentProfile } from "@/lib/agents/delete-agent-profile";
import { getAgentProfile } from "@/lib/agents/get-agent-profile";
import { updateAgentProfile } from "@/lib/agents/update-agent-profile";

export const GET = withWorkspace({ params: agentParams }, async ({ db, workspace, params }) =>
  json(await getAgentProfile(db, workspace.id, params.agent_id)),
);

// Owners may choose the default; what runs (kind, command, args, environment) is for administrators.
export const PATCH = withWorkspace(
  { params: agentParams, body: updateAgentBody, humansOnly: "write agent profiles" },
  async ({ db, workspace, params, body, caller, role }) => {
    const onlyDefault = Object.keys(body).every((key) => key === "is_default" || (body as Record<string, unknown>)[key] === undefined);
    if (!caller.isAdmin && !(onlyDefault && role === "owner")) {
      throw forbidden("Only administrators may change an agent profile; workspace owners may choose the default");
    }
    return json(await updateAgentProfile(db, workspace.id, params.agent_id, body));
  },
);

export const DELETE = withWorkspace(
  { params: agentParams, humansOnly: "write agent profiles" },
  async ({ db, workspace, params, caller }) => {
    if (!caller.isAdmin) throw forbidden("Only administrators may delete agent profiles");
    await deleteAgentProfile(db, workspace.id, params.agent_id);
    return noContent();
  },
);
