import type { Db } from "@/lib/db/client";
import { unseal } from "@/lib/crypto/seal";
import { onAnyWorkspaceEvents } from "@/lib/events/wake";
import { githubAppFromEnv, statusOf, type GithubApp } from "@/lib/github/client/app-client";

// Revokes the GitHub tokens of runs that ended (lib/git/remote/job-tokens.ts marks them in the
// ending transaction): an outbox drained after commit, so GitHub is never called inside a run's
// transaction and a slow or failing GitHub never fails a run's end. Each is revoked with
// `DELETE /installation/token`, authenticated with the token itself, and its row deleted. A failure
// is logged and tried again with back-off until the token's own expiry (at most an hour), when the
// row is dropped: an expired token needs no revocation. Every instance drains; a batch is taken with
// FOR UPDATE SKIP LOCKED and pushed past its next attempt, so two instances never revoke one twice.

const SWEEP_MS = 5000;
const BATCH = 50;
const BACKOFF_SECONDS = 30;
const MAX_ATTEMPTS = 5;

type Due = { id: string; token_sealed: string; expires_at: Date; attempts: number };

/** One pass: revokes what is due (ended, not yet tried or past its back-off); returns how many rows it took. */
export async function revokeEndedJobTokens(db: Db, github: GithubApp | null = githubAppFromEnv()): Promise<number> {
  // A cheap look first: most passes (woken by any event) find nothing.
  const any = await db.jobCredential.findFirst({
    where: { OR: [{ endedAt: { not: null } }, { expiresAt: { lt: new Date() } }] },
    select: { id: true },
  });
  if (!any) return 0;
  const due = await db.$queryRaw<Due[]>`
    UPDATE job_credentials SET attempts = attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${BACKOFF_SECONDS} * (attempts + 1))
    WHERE id IN (
      SELECT id FROM job_credentials
      WHERE (ended_at IS NOT NULL OR expires_at < now()) AND (next_attempt_at IS NULL OR next_attempt_at <= now())
      ORDER BY ended_at NULLS LAST LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING id, token_sealed, expires_at, attempts`;
  for (const row of due) {
    if (await revoked(row, github)) await db.jobCredential.deleteMany({ where: { id: row.id } });
  }
  return due.length;
}

/** Whether the row is done with: revoked now, already useless, or given up on. */
async function revoked(row: Due, github: GithubApp | null): Promise<boolean> {
  // Expired, or the App is no longer configured (nothing could revoke it): it lapses on its own.
  if (new Date(row.expires_at).getTime() <= Date.now() || !github) return true;
  try {
    await github.revokeInstallationToken(unseal(row.token_sealed));
    return true;
  } catch (error) {
    // 401: GitHub no longer knows it (revoked or expired already).
    if (statusOf(error) === 401) return true;
    const giveUp = row.attempts >= MAX_ATTEMPTS;
    console.error(
      `[taskboard] could not revoke a job's GitHub token (attempt ${row.attempts}${giveUp ? ", giving up: it expires on its own" : ""}): ${(error as Error).message}`,
    );
    return giveUp;
  }
}

/** Drains at start, whenever an event may mean a run ended, and every few seconds (retries, missed wake-ups). */
export function startJobTokenRevoker(db: Db) {
  let running = false;
  let again = false;
  const pass = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    revokeEndedJobTokens(db)
      .catch((error: Error) => console.error(`[taskboard] job token revocation: ${error.message}`))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  onAnyWorkspaceEvents(pass);
  setInterval(pass, SWEEP_MS).unref();
  pass();
}
