import type { Db, Tx } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { recordEventsOfWorkspaces } from "@/lib/events/record-events";
import { QUEUED_WORKSPACES_CTE } from "@/lib/dispatch/queued-workspaces-sql";
import { RUNNER_STATUS, type RunnerEventData } from "@/lib/dispatch/schemas";

// A runner coming online or going away changes why queued runs wait (waiting_for_runner, worked
// out when read), so it is recorded as a runner.updated event (stream-only, docs/events.md) in every
// workspace that has queued runs then: their open boards and run views read those reasons again.
// Only a change of status is recorded, never a heartbeat: `announced_online` holds what the log last
// said, and each change is made by one conditional UPDATE, so of concurrent calls (or the sweeps of
// several instances) exactly one records it.

/** Marks the runner seen at `now`; when the log last had it offline (or never had it), records it online. */
export async function touchRunner(db: Db, runner: Runner, now: Date): Promise<void> {
  // The common case, a runner already online, stays one UPDATE with no transaction.
  const staleBefore = new Date(now.getTime() - runnerLeaseSeconds() * 1000);
  if (runner.announcedOnline && runner.lastSeenAt && runner.lastSeenAt >= staleBefore) {
    await db.runner.update({ where: { id: runner.id }, data: { lastSeenAt: now } });
    return;
  }
  const cameOnline = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; name: string }[]>`
      UPDATE runners SET last_seen_at = ${now}, announced_online = true
      WHERE id = ${runner.id} AND revoked_at IS NULL
        AND (NOT announced_online OR last_seen_at IS NULL OR last_seen_at < ${staleBefore})
      RETURNING id, name`;
    await recordRunnerChanges(tx, rows, RUNNER_STATUS.online);
    return rows.length > 0;
  });
  // Another call of this runner announced it meanwhile: only the time is this call's.
  if (!cameOnline) await db.runner.update({ where: { id: runner.id }, data: { lastSeenAt: now } });
}

/**
 * Records offline every runner the log has online that is no longer: deleted, or silent for longer
 * than RUNNER_LEASE_SECONDS (stopped, killed, its machine gone). Run by every instance's lease sweep
 * and after a delete; a cheap look first, since almost every sweep finds none.
 */
export async function announceRunnersGone(db: Db, now = new Date()): Promise<number> {
  const staleBefore = new Date(now.getTime() - runnerLeaseSeconds() * 1000);
  const gone = { announcedOnline: true, OR: [{ revokedAt: { not: null } }, { lastSeenAt: null }, { lastSeenAt: { lt: staleBefore } }] };
  if (!(await db.runner.findFirst({ where: gone, select: { id: true } }))) return 0;
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; name: string }[]>`
      UPDATE runners SET announced_online = false
      WHERE announced_online AND (revoked_at IS NOT NULL OR last_seen_at IS NULL OR last_seen_at < ${staleBefore})
      RETURNING id, name`;
    await recordRunnerChanges(tx, rows, RUNNER_STATUS.offline);
    return rows.length;
  });
}

/**
 * One runner.updated per changed runner in each workspace with queued runs: found by a skip scan
 * on executions(status, workspace_id, created_at) that visits each such workspace once (as the
 * claim's lockNextRun does), never every queued run.
 */
async function recordRunnerChanges(tx: Tx, runners: { id: string; name: string }[], status: RunnerEventData["status"]) {
  if (runners.length === 0) return;
  const workspaces = await tx.$queryRaw<{ workspace_id: string }[]>`
    ${QUEUED_WORKSPACES_CTE}
    SELECT workspace_id FROM queued_workspaces WHERE workspace_id IS NOT NULL`;
  await recordEventsOfWorkspaces(
    tx,
    workspaces.flatMap(({ workspace_id }) =>
      runners.map((runner) => ({
        workspaceId: workspace_id,
        type: "runner.updated" as const,
        taskId: null,
        data: { id: runner.id, name: runner.name, status } satisfies RunnerEventData,
      })),
    ),
  );
}
