import { noContent, withWorkspace } from "@/lib/api/handler";
import { memberParams } from "@/lib/workspaces/schemas";
import { removeMember } from "@/lib/workspaces/remove-member";

export const DELETE = withWorkspace(
  { ownerOnly: true, humansOnly: "see or change the members", params: memberParams },
  async ({ db, workspace, params }) => {
    await removeMember(db, workspace.id, params.user_id);
    return noContent();
  },
);
