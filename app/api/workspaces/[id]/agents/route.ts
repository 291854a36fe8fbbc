import { json, withWorkspace } from "@/lib/api/handler";
import { forbidden } from "@/lib/platform/errors";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createAgentBody } from "@/lib/agents/schemas";
import { createAgentProfile } from "@/lib/agents/create-agent-profile";
import { listAgentProfiles } from "@/lib/agents/list-agent-profiles";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace }) => json(await listAgentProfiles(db, workspace.id)));

// A profile is a command the server runs: only administrators write them (docs/agents.md).
export const POST = withWorkspace(
  { params: workspaceParams, body: createAgentBody, humansOnly: "write agent profiles" },
  async ({ db, workspace, body, caller }) => {
    if (!caller.isAdmin) throw forbidden(ADMINS_ONLY);
    return json(await createAgentProfile(db, workspace.id, body), 201);
  },
);

const ADMINS_ONLY = "Only administrators may add agent profiles: a profile is a command the server runs";
