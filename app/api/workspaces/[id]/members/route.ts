import { json, withWorkspace } from "@/lib/api/handler";
import { addMemberBody, workspaceParams } from "@/lib/workspaces/schemas";
import { addMember } from "@/lib/workspaces/add-member";
import { listMembers } from "@/lib/workspaces/list-members";

// Membership is management of people: humans only, never an agent token (lib/api/handler.ts).
export const GET = withWorkspace({ humansOnly: "see or change the members", params: workspaceParams }, async ({ db, workspace }) =>
  json(await listMembers(db, workspace.id)),
);

export const POST = withWorkspace(
  { ownerOnly: true, humansOnly: "see or change the members", params: workspaceParams, body: addMemberBody },
  async ({ db, workspace, body }) => json(await addMember(db, workspace.id, body.username, body.role), 201),
);
