import type { Runner } from "@/lib/generated/prisma/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { RUNNER_STATUS, type RunnerRecord } from "@/lib/dispatch/schemas";
import { jobsRefusedReason } from "@/lib/dispatch/require-sandbox";

export function isOnline(lastSeenAt: Date | null, now = Date.now()): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() <= runnerLeaseSeconds() * 1000;
}

export function serializeRunner(row: Runner, running: number): RunnerRecord {
  return {
    id: row.id,
    name: row.name,
    capacity: row.capacity,
    labels: row.labels,
    dedicated: row.dedicated,
    status: isOnline(row.lastSeenAt) ? RUNNER_STATUS.online : RUNNER_STATUS.offline,
    running,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    version: row.version,
    sandbox: row.sandbox,
    jobs_refused: jobsRefusedReason(row.sandbox, row.id),
    created_at: row.createdAt.toISOString(),
  };
}
