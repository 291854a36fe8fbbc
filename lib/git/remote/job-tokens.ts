import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { seal, unseal } from "@/lib/crypto/seal";
import { TOKEN_REFRESH_MARGIN_MS } from "@/lib/github/client/app-client";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";

// The GitHub installation tokens handed to a run's job (docs/runners.md, "Job credentials"). Each is
// minted for that job alone and kept, sealed, in job_credentials while the run lasts: a later
// `…/remote` of the same run gets it again (no new token per call), and when the run ends (finished,
// failed, cancelled, its lease lost, handed back) the transaction that ends it marks its tokens, which
// lib/github/sync/revoke-job-tokens.ts then revokes at GitHub, outside that transaction.

/** The run's newest token with at least the refresh margin left, or null (then a new one is minted). */
export async function keptJobToken(db: Db, executionId: string): Promise<string | null> {
  const row = await db.jobCredential.findFirst({
    where: { executionId, endedAt: null, expiresAt: { gt: new Date(Date.now() + TOKEN_REFRESH_MARGIN_MS) } },
    // The newest minted (GitHub's expires_at has whole seconds: two tokens may share one).
    orderBy: { createdAt: "desc" },
    select: { tokenSealed: true },
  });
  return row ? unseal(row.tokenSealed) : null;
}

/**
 * Keeps a token minted for the run. A run that ended while the token was being minted has it marked
 * ended at once, so it is revoked too: the ending transaction may have committed before this insert.
 */
export async function keepJobToken(db: Db, executionId: string, installationId: number, token: string, expiresAt: Date): Promise<void> {
  await db.$executeRaw`
    INSERT INTO job_credentials (id, execution_id, installation_id, token_sealed, expires_at, ended_at)
    SELECT ${crypto.randomUUID()}, ${executionId}, ${installationId}, ${seal(token)}, ${expiresAt},
      CASE WHEN EXISTS (SELECT 1 FROM executions WHERE id = ${executionId} AND status = ANY(${[...STARTED_RUN_STATUSES]}::text[]))
           THEN NULL ELSE now() END`;
}
