import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";

// A runner's heartbeat: the leases of the runs it holds are renewed, and the answer says which of
// them to stop (cancelled by a person, finished by an expired lease, or not this runner's at all),
// so a cancel reaches the agent within one heartbeat.

export async function renewLeases(db: Db, runner: Runner, executionIds: string[]) {
  const lease = runnerLeaseSeconds();
  const ids = [...new Set(executionIds)];
  if (ids.length > 0) {
    await db.execution.updateMany({
      where: { id: { in: ids }, runnerId: runner.id, status: { in: [...STARTED_RUN_STATUSES] } },
      data: { leaseExpiresAt: new Date(Date.now() + lease * 1000) },
    });
  }
  const rows = await db.execution.findMany({
    where: { id: { in: ids }, runnerId: runner.id },
    select: { id: true, status: true, errorMessage: true },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    executions: ids.map((id) => {
      const row = byId.get(id);
      const running = row && (STARTED_RUN_STATUSES as readonly string[]).includes(row.status);
      return {
        id,
        cancel: !running,
        reason: running ? null : (row?.errorMessage ?? (row ? `the run is ${row.status}` : "not a run of this runner")),
      };
    }),
    lease_seconds: lease,
  };
}
