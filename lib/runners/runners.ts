import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { hashSecret, newRunnerSecret } from "@/lib/auth/tokens";
import { runnerLeaseSeconds } from "@/lib/config";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { RUNNER_STATUS, type createRunnerBody, type RunnerRecord } from "@/lib/runners/schemas";
import { announceRunnersGone } from "@/lib/runners/runner-status-events";
import { jobsRefusedReason } from "@/lib/runners/require-sandbox";
import type { z } from "zod";

// Registering, listing and deleting runners (administrators only; the routes check). A deleted
// runner keeps its row with revoked_at set, so its token fails at once and executions keep its name.

export async function createRunner(db: Db, input: z.output<typeof createRunnerBody>, userId: string) {
  const token = newRunnerSecret();
  const row = await db.runner.create({
    data: { name: input.name, capacity: input.capacity, labels: input.labels, tokenHash: hashSecret(token), createdBy: userId },
  });
  return { ...serializeRunner(row, 0), token };
}

export async function listRunners(db: Db): Promise<RunnerRecord[]> {
  const rows = await db.runner.findMany({ where: { revokedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1000 });
  const counts = await db.execution.groupBy({
    by: ["runnerId"],
    where: { runnerId: { in: rows.map((row) => row.id) }, status: { in: [...STARTED_RUN_STATUSES] } },
    _count: { _all: true },
  });
  const running = new Map(counts.map((count) => [count.runnerId, count._count._all]));
  return rows.map((row) => serializeRunner(row, running.get(row.id) ?? 0));
}

export async function deleteRunner(db: Db, runnerId: string) {
  const { count } = await db.runner.updateMany({ where: { id: runnerId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw notFound("Runner");
  // Its queued-run reasons change now, not when the lease sweep next looks.
  await announceRunnersGone(db);
}

export function isOnline(lastSeenAt: Date | null, now = Date.now()): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() <= runnerLeaseSeconds() * 1000;
}

export function serializeRunner(row: Runner, running: number): RunnerRecord {
  return {
    id: row.id,
    name: row.name,
    capacity: row.capacity,
    labels: row.labels,
    status: isOnline(row.lastSeenAt) ? RUNNER_STATUS.online : RUNNER_STATUS.offline,
    running,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    version: row.version,
    sandbox: row.sandbox,
    jobs_refused: jobsRefusedReason(row.sandbox, row.id),
    created_at: row.createdAt.toISOString(),
  };
}
