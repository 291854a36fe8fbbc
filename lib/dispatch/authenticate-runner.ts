import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { unauthorized } from "@/lib/platform/errors";
import { hashSecret } from "@/lib/auth/tokens";
import { touchRunner } from "@/lib/dispatch/runner-status-events";

// The runner protocol's only credential: a runner token, looked up in `runners` (never in
// auth_tokens), so a runner token works nowhere else and no person's token, API key, agent token or
// browser session works here. A deleted runner's token fails on its next call.

/** How often last_seen_at is written at most (a runner calls several times a second when busy). */
const TOUCH_MS = 1000;

export async function authenticateRunner(request: Request, db: Db): Promise<Runner> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (!match) throw unauthorized("A runner token is required here");
  const runner = await db.runner.findUnique({ where: { tokenHash: hashSecret(match[1]) } });
  if (!runner || runner.revokedAt) throw unauthorized("Invalid or revoked runner token");
  const now = new Date();
  if (!runner.lastSeenAt || now.getTime() - runner.lastSeenAt.getTime() > TOUCH_MS) {
    // Coming online (first contact, or back after RUNNER_LEASE_SECONDS of silence) is recorded once.
    await touchRunner(db, runner, now);
    runner.lastSeenAt = now;
  }
  return runner;
}
