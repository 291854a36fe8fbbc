import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { describeFallbackAgent } from "@/lib/agents/resolve-run-agent";

// The agent a run gets when the workspace has no profile (AGENT_COMMAND, else the demo agent), so the
// Run dialog can say which, and call the demo a demo.
export const GET = withWorkspace({ params: workspaceParams }, async () => json(describeFallbackAgent()));
