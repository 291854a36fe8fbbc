import type { Db } from "@/lib/db/client";
import type { User } from "@/lib/generated/prisma/client";
import { conflict, HttpError } from "@/lib/platform/errors";
import { hashPassword } from "@/lib/auth/password";
import { assertSetupCode } from "@/lib/auth/setup-code";
import { needsSetup } from "@/lib/auth/needs-setup";
import { passwordLoginEnabled } from "@/lib/config";
import { passwordLoginOff } from "@/lib/auth/login";

export async function createUser(
  db: Db,
  input: { username: string; password: string; is_admin: boolean; display_name?: string | null; email?: string | null },
) {
  const passwordHash = await hashPassword(input.password);
  try {
    const data = {
      username: input.username,
      passwordHash,
      isAdmin: input.is_admin,
      displayName: input.display_name ?? null,
      email: input.email ?? null,
    };
    return serializeUser(await db.user.create({ data }));
  } catch (error) {
    throw takenName(error) ?? error;
  }
}

/** A unique name already taken, in words: a username or an email address belong to one user each. */
export function takenName(error: unknown) {
  if ((error as { code?: string }).code !== "P2002") return null;
  const fields = JSON.stringify((error as { meta?: unknown }).meta ?? "");
  return conflict(fields.includes("email") ? "Another user already has that email address" : "A user with that username already exists");
}

/**
 * The first administrator, made once: from ADMIN_USERNAME/ADMIN_PASSWORD at start-up, or through
 * the setup page (`from`: the client's address and the setup code it gave; lib/auth/setup-code.ts).
 * Whether setup is still open is checked before the (costly) hash; the advisory lock then makes
 * two concurrent attempts create one admin, not two.
 */
export async function createFirstAdmin(db: Db, username: string, password: string, from?: { client: string; code?: string }) {
  if (!(await needsSetup(db))) throw setupDone();
  if (!passwordLoginEnabled()) throw passwordLoginOff();
  if (from) assertSetupCode(from.client, from.code);
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(8675309)`;
    if (!(await needsSetup(tx))) throw setupDone();
    return serializeUser(await tx.user.create({ data: { username, passwordHash, isAdmin: true } }));
  });
}

export function serializeUser(row: User) {
  return {
    id: row.id,
    username: row.username,
    display_name: row.displayName,
    email: row.email,
    is_admin: row.isAdmin,
    disabled: row.disabled,
    created_at: row.createdAt.toISOString(),
  };
}

function setupDone() {
  return new HttpError(409, "Setup is already done: an administrator exists");
}
