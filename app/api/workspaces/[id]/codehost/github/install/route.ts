import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { startGithubInstall } from "@/lib/github/connection/github-install";

// A person installs the App in a browser; an agent token has no browser and no business connecting.
export const POST = withWorkspace(
  { ownerOnly: true, humansOnly: "connect the code host", params: workspaceParams },
  async ({ workspace, caller }) => json(await startGithubInstall(workspace.id, caller.userId)),
);
