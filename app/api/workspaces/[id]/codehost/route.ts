import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { connectCodehostBody } from "@/lib/codehost/schemas";
import { connectCodehost, disconnectCodehost } from "@/lib/codehost/connection";

// Connecting decides which repository agents push to, so only workspace owners may change it.
export const PUT = withWorkspace({ ownerOnly: true, params: workspaceParams, body: connectCodehostBody }, async ({ db, workspace, body }) =>
  json(await connectCodehost(db, workspace.id, body.installation_id, body.repo)),
);

export const DELETE = withWorkspace({ ownerOnly: true, params: workspaceParams }, async ({ db, workspace }) => {
  await disconnectCodehost(db, workspace.id);
  return noContent();
});
