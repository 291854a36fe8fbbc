import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { agentPresets } from "@/lib/agents/presets";

export const GET = withWorkspace({ params: workspaceParams }, async () => json(agentPresets()));
