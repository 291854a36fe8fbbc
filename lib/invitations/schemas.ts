import { z } from "zod";
import { memberRole, workspaceParams } from "@/lib/workspaces/schemas";
import { displayName, username } from "@/lib/users/schemas";

export const createInvitationBody = z.object({
  email: z.email().max(254).nullable().optional().describe("Also sent there by mail when the server has SMTP_URL and MAIL_FROM"),
  role: memberRole.default("member"),
});

export const invitationParams = workspaceParams.extend({ invitation_id: z.string() });

export const tokenParams = z.object({ token: z.string().min(1).max(200) });

/**
 * Accepting: a signed-in caller sends no account fields and joins as themself; anyone else sends a
 * new account's `username` and `password` (an existing account signs in first, then accepts).
 */
export const acceptInvitationBody = z
  .object({
    username: username.optional(),
    password: z.string().min(8).max(256).optional(),
    display_name: displayName.optional(),
  })
  .default({});

export const invitation = z.object({
  id: z.string(),
  workspace_id: z.string(),
  role: memberRole,
  email: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});

/** Only the answer to its creation carries the link: the server keeps nothing it could show again. */
export const createdInvitation = invitation.extend({ url: z.string() });

/** What the invitation page shows before anyone signs in. */
export const invitationPreview = z.object({
  workspace_name: z.string(),
  role: memberRole,
  email: z.string().nullable(),
  expires_at: z.string(),
});

export const acceptedInvitation = z.object({
  workspace_id: z.string(),
  workspace_name: z.string(),
  role: memberRole,
  user_id: z.string(),
  username: z.string(),
});
