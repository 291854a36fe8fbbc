import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import type { heartbeatBody, heartbeatResponse } from "@/lib/runner-protocol";
import { runnerLeaseSeconds } from "@/lib/config";
import { onWorkspaceChanges } from "@/lib/events/wake";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";

// A runner's heartbeat: the leases of the runs it holds are renewed, and the answer says which of
// them to stop (cancelled by a person, finished by an expired lease, or not this runner's at all).
// With `wait_seconds` it is a long poll: while none is to stop, the answer waits for a change in
// their workspaces' logs (a cancel records events there, on any instance), so a cancel reaches the
// runner at once rather than at its next heartbeat.

/** Wake-ups closer together than this make one read (a busy workspace records many events). */
const SPACING_MS = 50;

type Row = { id: string; status: string; errorMessage: string | null; workspaceId: string };

export async function renewLeases(
  db: Db,
  runner: Runner,
  { executions, wait_seconds }: z.output<typeof heartbeatBody>,
  signal: AbortSignal,
): Promise<z.output<typeof heartbeatResponse>> {
  const lease = runnerLeaseSeconds();
  const ids = [...new Set(executions)];
  if (ids.length > 0) {
    await db.execution.updateMany({
      where: { id: { in: ids }, runnerId: runner.id, status: { in: [...STARTED_RUN_STATUSES] } },
      data: { leaseExpiresAt: new Date(Date.now() + lease * 1000) },
    });
  }
  // Never held past a third of the lease it just renewed: the runner's next heartbeat comes in time.
  const holdMs = Math.min(wait_seconds, lease / 3) * 1000;
  let rows = await readRuns(db, runner, ids);
  if (holdMs > 0 && ids.length > 0 && !verdicts(ids, rows).some((run) => run.cancel))
    rows = await holdUntilAStop(db, runner, ids, rows, Date.now() + holdMs, signal);
  return { executions: verdicts(ids, rows), lease_seconds: lease };
}

function readRuns(db: Db, runner: Runner, ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.execution.findMany({
    where: { id: { in: ids }, runnerId: runner.id },
    select: { id: true, status: true, errorMessage: true, workspaceId: true },
  });
}

function verdicts(ids: string[], rows: Row[]) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    const running = row && (STARTED_RUN_STATUSES as readonly string[]).includes(row.status);
    return {
      id,
      cancel: !running,
      reason: running ? null : (row?.errorMessage ?? (row ? `the run is ${row.status}` : "not a run of this runner")),
    };
  });
}

/** Reads the runs again at each change of their workspaces' logs, until one is to stop, the deadline, or the signal. */
async function holdUntilAStop(db: Db, runner: Runner, ids: string[], rows: Row[], deadline: number, signal: AbortSignal) {
  let woke = new AbortController();
  // A change between the first read and this subscription is not missed: read once more.
  woke.abort();
  const unsubscribe = [...new Set(rows.map((row) => row.workspaceId))].map((workspaceId) =>
    onWorkspaceChanges(workspaceId, () => woke.abort()),
  );
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return rows;
      await sleep(left, undefined, { signal: AbortSignal.any([signal, woke.signal]) }).catch(() => {});
      if (!woke.signal.aborted) continue;
      woke = new AbortController();
      await sleep(SPACING_MS);
      rows = await readRuns(db, runner, ids);
      if (verdicts(ids, rows).some((run) => run.cancel)) return rows;
    }
  } finally {
    for (const off of unsubscribe) off();
  }
}
