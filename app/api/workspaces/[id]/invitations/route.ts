import { after } from "next/server";
import { json, withWorkspace } from "@/lib/api/handler";
import { publicUrl } from "@/lib/config";
import { createInvitationBody } from "@/lib/invitations/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createInvitation } from "@/lib/invitations/create-invitation";
import { listInvitations } from "@/lib/invitations/list-invitations";
import { sendInvitationMail } from "@/lib/invitations/send-invitation-mail";

// Inviting people is an owner's act, never an agent token's (lib/api/handler.ts).
const RULES = { ownerOnly: true, humansOnly: "invite people", params: workspaceParams } as const;

export const GET = withWorkspace(RULES, async ({ db, workspace }) => json(await listInvitations(db, workspace.id)));

export const POST = withWorkspace({ ...RULES, body: createInvitationBody }, async ({ request, db, workspace, caller, body }) => {
  // PUBLIC_URL when set; else the address the owner's own request came to (it is their link).
  const url = new URL(request.url);
  const base = publicUrl()?.toString() ?? `${url.protocol}//${request.headers.get("host") ?? url.host}`;
  const created = await createInvitation(db, workspace.id, caller.userId, body, base);
  if (created.email) {
    const mail = { to: created.email, url: created.url, workspaceName: workspace.name, role: created.role, invitedBy: caller.username };
    // After the answer is sent, and never its failure: the owner has the link to pass on by hand.
    after(() =>
      sendInvitationMail({ ...mail, expiresAt: created.expires_at }).catch((error: unknown) =>
        console.error(`invitation ${created.id}: mail to ${created.email} not sent:`, error instanceof Error ? error.message : error),
      ),
    );
  }
  return json(created, 201);
});
