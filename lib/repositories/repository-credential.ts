import type { z } from "zod";
import type { WorkspaceRepository } from "@/lib/generated/prisma/client";
import { seal, unseal } from "@/lib/crypto/seal";
import type { repositoryCredentialBody, repositoryCredentialResponse } from "@/lib/repositories/schemas";

// The workspace's own credential for its repository's remote: an access token (https, sent as
// HTTP Basic with its username) or a deploy key (an ssh private key). Stored sealed
// (lib/crypto/seal.ts); the API only ever says that one is set, of which kind, and since when.

export type RepositoryCredential = z.output<typeof repositoryCredentialBody>;

export const DEFAULT_TOKEN_USERNAME = "x-access-token";

/** The columns that store `credential` (null: none). */
export function credentialColumns(credential: RepositoryCredential | null) {
  if (!credential) return { credentialType: null, credentialUsername: null, credentialSealed: null, credentialSetAt: null };
  return credential.type === "access_token"
    ? {
        credentialType: credential.type,
        credentialUsername: credential.username ?? DEFAULT_TOKEN_USERNAME,
        credentialSealed: seal(credential.token),
        credentialSetAt: new Date(),
      }
    : {
        credentialType: credential.type,
        credentialUsername: null,
        credentialSealed: seal(credential.private_key),
        credentialSetAt: new Date(),
      };
}

/** The stored credential in the clear, for git only; null when none is stored. */
export function openCredential(row: Pick<WorkspaceRepository, "credentialType" | "credentialUsername" | "credentialSealed">) {
  if (!row.credentialType || !row.credentialSealed) return null;
  const secret = unseal(row.credentialSealed);
  return row.credentialType === "deploy_key"
    ? ({ type: "deploy_key", private_key: secret } as const)
    : ({ type: "access_token", token: secret, username: row.credentialUsername ?? DEFAULT_TOKEN_USERNAME } as const);
}

export function serializeCredential(row: WorkspaceRepository): z.output<typeof repositoryCredentialResponse> | null {
  if (!row.credentialType || !row.credentialSetAt) return null;
  return {
    type: row.credentialType === "deploy_key" ? "deploy_key" : "access_token",
    username: row.credentialUsername,
    set_at: row.credentialSetAt.toISOString(),
  };
}
