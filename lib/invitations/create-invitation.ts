import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { invitationExpireDays } from "@/lib/config";
import { daysFromNow } from "@/lib/auth/tokens";
import type { createInvitationBody } from "@/lib/invitations/schemas";
import { invitationUrl, newInvitationToken, serializeInvitation } from "@/lib/invitations/serialize";

/** A new invitation and its link (`base`: the board's public address). The link is never shown again. */
export async function createInvitation(
  db: Db,
  workspaceId: string,
  createdBy: string,
  input: z.output<typeof createInvitationBody>,
  base: string,
) {
  const { token, tokenHash } = newInvitationToken();
  const row = await db.invitation.create({
    data: {
      workspaceId,
      tokenHash,
      role: input.role,
      email: input.email ?? null,
      createdBy,
      expiresAt: daysFromNow(invitationExpireDays()),
    },
  });
  return { ...serializeInvitation(row), url: invitationUrl(base, token) };
}
