import type { Db } from "@/lib/db/client";
import type { Invitation } from "@/lib/generated/prisma/client";
import { HttpError } from "@/lib/platform/errors";
import { hashSecret } from "@/lib/auth/tokens";

type Tx = Pick<Db, "invitation">;

/**
 * The open invitation behind a link, or the reason it no longer opens, in words: 404 for a link
 * that never existed, 410 for one that was used, revoked or has expired.
 */
export async function openInvitation(db: Tx, token: string) {
  const row = await db.invitation.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { workspace: { select: { name: true } } },
  });
  if (!row) throw new HttpError(404, "This invitation link is not valid: check that it was copied whole, or ask for a new one");
  refuseClosed(row);
  return row;
}

function refuseClosed(row: Invitation) {
  if (row.acceptedAt)
    throw new HttpError(410, "This invitation was already used: each link lets one person join. Ask a workspace owner for a new one");
  if (row.revokedAt) throw new HttpError(410, "This invitation was revoked by a workspace owner. Ask them for a new one");
  if (row.expiresAt <= new Date()) {
    throw new HttpError(410, `This invitation expired on ${row.expiresAt.toISOString().slice(0, 10)}. Ask a workspace owner for a new one`);
  }
}

/** What the invitation page shows before anyone signs in: the workspace's name and the role. */
export async function previewInvitation(db: Db, token: string) {
  const row = await openInvitation(db, token);
  return { workspace_name: row.workspace.name, role: row.role, email: row.email, expires_at: row.expiresAt.toISOString() };
}
