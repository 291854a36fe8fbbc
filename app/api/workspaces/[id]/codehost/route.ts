import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { connectCodehostBody } from "@/lib/github/connection/schemas";
import { connectCodehost, disconnectCodehost } from "@/lib/github/connection/connection";

// Connecting decides which repository agents push to, so only workspace owners may change it, and
// only within an installation GitHub said they can access (lib/github/connection/connection.ts).
export const PUT = withWorkspace(
  { ownerOnly: true, params: workspaceParams, body: connectCodehostBody },
  async ({ db, workspace, body, caller }) => json(await connectCodehost(db, workspace.id, body, caller)),
);

export const DELETE = withWorkspace({ ownerOnly: true, params: workspaceParams }, async ({ db, workspace }) => {
  await disconnectCodehost(db, workspace.id);
  return noContent();
});
