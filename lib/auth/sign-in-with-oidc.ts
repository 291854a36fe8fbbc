import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { OidcConfig } from "@/lib/config";
import { passwordLoginEnabled } from "@/lib/config";
import { createBrowserSession } from "@/lib/auth/browser-session";
import { needsSetup } from "@/lib/auth/needs-setup";

/** What the provider said about the person (ID token claims merged with the userinfo answer). */
export interface OidcClaims {
  iss?: unknown;
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
  preferred_username?: unknown;
  name?: unknown;
  groups?: unknown;
}

/** Why a sign-in was refused; the login page says each in words (components/auth/login-form.tsx). */
export type OidcRefusal = "SsoNotAllowed" | "SsoDisabled" | "SsoNotSetUp" | "SsoBadClaims";

export type OidcSignIn = { userId: string; username: string; isAdmin: boolean; sid: string } | { refused: OidcRefusal };

// Users made here get a password hash that no password matches (verifyPassword only accepts
// "scrypt$…"), so they sign in only through the provider until an administrator sets a password.
const NO_PASSWORD = "!sso";
// The same lock createFirstAdmin takes, so setup and the first single sign-on make one admin.
const SETUP_LOCK = 8675309;

/**
 * The sign-in of a provider identity: its linked user, or a new user when the identity is allowed
 * (docs/sso.md). Identities are linked by (issuer, subject) only — never by email or username to an
 * existing user, since whoever controls an account at the provider could otherwise take over a
 * password user who happens to share the address.
 */
export async function signInWithOidc(db: Db, config: OidcConfig, claims: OidcClaims): Promise<OidcSignIn> {
  const issuer = typeof claims.iss === "string" && claims.iss ? claims.iss : config.issuer;
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  if (!subject || subject.length > 255 || subject.includes("\0")) return { refused: "SsoBadClaims" };
  const where = { issuer_subject: { issuer, subject } };

  let identity = await db.oidcIdentity.findUnique({ where, include: { user: true } });
  if (!identity) {
    if (!allowed(config, claims)) return { refused: "SsoNotAllowed" };
    // A second try only after losing a race (the same identity, or the same username, created
    // by a concurrent sign-in): then the identity is found, or another username is free.
    for (let attempt = 0; attempt < 2 && !identity; attempt++) {
      const created = await createLinkedUser(db, issuer, subject, claims);
      if ("refused" in created) return created;
      identity = await db.oidcIdentity.findUnique({ where, include: { user: true } });
    }
    if (!identity) return { refused: "SsoBadClaims" };
  } else {
    await db.oidcIdentity.update({ where: { id: identity.id }, data: { lastLoginAt: new Date(), email: emailOf(claims) } });
  }
  const { user } = identity;
  if (user.disabled) return { refused: "SsoDisabled" };
  return { userId: user.id, username: user.username, isAdmin: user.isAdmin, sid: await createBrowserSession(db, user.id) };
}

/** A new identity may create a user by a verified email in an allowed domain, or by an allowed group. */
export function allowed(config: OidcConfig, claims: OidcClaims): boolean {
  const email = emailOf(claims);
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const domain = email?.split("@").pop()?.toLowerCase();
  if (verified && domain && config.allowedDomains.includes(domain)) return true;
  const groups = Array.isArray(claims.groups) ? claims.groups : typeof claims.groups === "string" ? [claims.groups] : [];
  return groups.some((group) => typeof group === "string" && config.allowedGroups.includes(group));
}

async function createLinkedUser(
  db: Db,
  issuer: string,
  subject: string,
  claims: OidcClaims,
): Promise<{ created: true } | { refused: OidcRefusal }> {
  const candidates = usernameCandidates(claims);
  try {
    return await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
      if (await tx.oidcIdentity.findUnique({ where: { issuer_subject: { issuer, subject } } })) return { created: true as const };
      // No user yet: with password login on, setup is the setup page's job; with it off, the first
      // allowed identity becomes the administrator (docs/sso.md, "First administrator").
      const firstUser = await needsSetup(tx);
      if (firstUser && passwordLoginEnabled()) return { refused: "SsoNotSetUp" as const };
      const taken = new Set(
        (await tx.user.findMany({ where: { username: { in: candidates } }, select: { username: true } })).map((row) => row.username),
      );
      const username =
        candidates.find((name) => !taken.has(name)) ?? `${candidates[0].slice(0, 55)}-${crypto.randomBytes(4).toString("hex")}`;
      await tx.user.create({
        data: {
          username,
          passwordHash: NO_PASSWORD,
          isAdmin: firstUser,
          identities: { create: { issuer, subject, email: emailOf(claims) } },
        },
      });
      return { created: true as const };
    });
  } catch (error) {
    // The identity (or the username) was created by a concurrent sign-in: the caller looks again.
    if ((error as { code?: string }).code === "P2002") return { created: true };
    throw error;
  }
}

function usernameCandidates(claims: OidcClaims): string[] {
  const raw = [claims.preferred_username, emailOf(claims), claims.name].find((value) => typeof value === "string" && value.trim());
  const base =
    String(raw ?? "user")
      .trim()
      .replace(/[^A-Za-z0-9_.@-]+/g, "-")
      .slice(0, 60) || "user";
  return [base, ...[2, 3, 4, 5].map((n) => `${base}-${n}`)];
}

function emailOf(claims: OidcClaims): string | null {
  return typeof claims.email === "string" && claims.email.includes("@") ? claims.email.slice(0, 320) : null;
}
