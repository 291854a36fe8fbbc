import type { Tx } from "@/lib/db/client";

// A run's GitHub job tokens (lib/git/remote/job-tokens.ts) are marked in the transaction that ends
// the run or hands it back; lib/github/sync/revoke-job-tokens.ts revokes them at GitHub after
// commit. Here, below git, so that ending a run (lib/runs) needs nothing of the layers above it.

/** From now on the run's tokens are to be revoked. */
export async function endJobTokens(tx: Tx, executionId: string, now: Date): Promise<void> {
  await tx.jobCredential.updateMany({ where: { executionId, endedAt: null }, data: { endedAt: now } });
}
