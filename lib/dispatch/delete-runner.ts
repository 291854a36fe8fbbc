import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { announceRunnersGone } from "@/lib/dispatch/runner-status-events";

// A deleted runner keeps its row with revoked_at set, so its token fails at once and executions keep its name.

export async function deleteRunner(db: Db, runnerId: string) {
  const { count } = await db.runner.updateMany({ where: { id: runnerId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw notFound("Runner");
  // Its queued-run reasons change now, not when the lease sweep next looks.
  await announceRunnersGone(db);
}
