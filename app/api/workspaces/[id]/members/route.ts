import { json, withWorkspace } from "@/lib/api/handler";
import { addMemberBody, workspaceParams } from "@/lib/workspaces/schemas";
import { addMember, listMembers } from "@/lib/workspaces/workspaces";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace }) => json(await listMembers(db, workspace.id)));

export const POST = withWorkspace({ ownerOnly: true, params: workspaceParams, body: addMemberBody }, async ({ db, workspace, body }) =>
  json(await addMember(db, workspace.id, body.username, body.role), 201),
);
