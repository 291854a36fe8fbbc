import { noContent, withWorkspace } from "@/lib/api/handler";
import { invitationParams } from "@/lib/invitations/schemas";
import { revokeInvitation } from "@/lib/invitations/revoke-invitation";

export const DELETE = withWorkspace(
  { ownerOnly: true, humansOnly: "invite people", params: invitationParams },
  async ({ db, workspace, params }) => {
    await revokeInvitation(db, workspace.id, params.invitation_id);
    return noContent();
  },
);
