import crypto from "node:crypto";
import type { Invitation } from "@/lib/generated/prisma/client";
import { hashSecret } from "@/lib/auth/tokens";

export function serializeInvitation(row: Invitation) {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    role: row.role,
    email: row.email,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** An invitation's secret, recognisable by its prefix; only its SHA-256 is stored (lib/auth/tokens.ts). */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = "tbi_" + crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: hashSecret(token) };
}

export function invitationUrl(base: string, token: string): string {
  return new URL(`/invite/${encodeURIComponent(token)}`, base).toString();
}
