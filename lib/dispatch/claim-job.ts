import { setTimeout as sleep } from "node:timers/promises";
import type { Db, Tx } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import { hashSecret, newSecret } from "@/lib/auth/tokens";
import { runnerLeaseSeconds } from "@/lib/config";
import { recordEvents } from "@/lib/events/record-events";
import { onAnyWorkspaceEvents } from "@/lib/events/wake";
import { agentTokenName, executionEvent, finishExecution } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { QUEUED_WORKSPACES_CTE } from "@/lib/dispatch/queued-workspaces-sql";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { killGraceMs, timeoutSeconds } from "@/lib/platform/runner-config";
import { buildJob, JobRefused } from "@/lib/dispatch/build-job";
import { jobsRefusedReason } from "@/lib/dispatch/require-sandbox";
import type { claimBody, claimResponse, Job } from "@/lib/runner-protocol";

// A runner's claim: the next queued execution by the policy of lockNextRun (labels, round-robin
// across workspaces, their caps), taken under FOR UPDATE SKIP LOCKED (so of several runners, on any
// number of server instances, exactly one gets it), marked running with this
// runner's name and a lease, and handed out as a job. The long poll waits on the event log's
// wake-ups (a run queued on any instance records events) with a slow poll behind them. A runner
// gets only the jobs of workspaces that let it take them (workspace_runner_choices, in the
// candidates' query itself), and none at all when it reported no sandbox and the server requires
// one (RUNNERS_REQUIRE_SANDBOX): then the answer says so, after the long poll, for its log.

const POLL_MS = 2000;
/** Wake-ups closer together than this make one claim attempt (a busy board records many events). */
const SPACING_MS = 50;

export async function waitForJob(
  db: Db,
  runner: Runner,
  input: z.output<typeof claimBody>,
  signal: AbortSignal,
): Promise<z.output<typeof claimResponse>> {
  await db.runner.update({ where: { id: runner.id }, data: { version: input.version, sandbox: input.sandbox, lastSeenAt: new Date() } });
  const refused = jobsRefusedReason(input.sandbox, runner.id);
  if (refused) {
    // Held like an empty long poll, so a refused runner asks twice a minute, not in a loop.
    await sleep(input.wait_seconds * 1000, undefined, { signal }).catch(() => {});
    return { job: null, refused };
  }
  return { job: await pollForJob(db, runner, input, signal), refused: null };
}

async function pollForJob(db: Db, runner: Runner, input: z.output<typeof claimBody>, signal: AbortSignal): Promise<Job | null> {
  const deadline = Date.now() + input.wait_seconds * 1000;
  let woken = false;
  let wake = () => {};
  const unsubscribe = onAnyWorkspaceEvents(() => {
    woken = true;
    wake();
  });
  try {
    let last = 0;
    for (;;) {
      woken = false;
      // Wake-ups in a burst make one attempt per SPACING_MS; the first one after a quiet spell goes at once.
      const spacing = last + SPACING_MS - Date.now();
      if (spacing > 0) await sleep(spacing);
      last = Date.now();
      const job = await claimJob(db, runner, input.free);
      const left = deadline - Date.now();
      if (job || left <= 0 || signal.aborted) return job;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, POLL_MS));
        signal.addEventListener("abort", done);
        wake = done;
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          wake = () => {};
          resolve();
        }
      });
    }
  } finally {
    unsubscribe();
  }
}

/** One attempt: a job, or null when there is no queued run or no room on the runner. */
export async function claimJob(db: Db, runner: Runner, free: number): Promise<Job | null> {
  for (;;) {
    const claimed = await claimOne(db, runner, free);
    if (!claimed) return null;
    try {
      return await buildJob(db, claimed.executionId, claimed.secret);
    } catch (error) {
      // A run that cannot be described (its branch is refused, the remote unreachable) fails in
      // words, and the runner gets the next one.
      const message = error instanceof JobRefused ? error.message : `could not hand out the run: ${(error as Error).message}`;
      await finishExecution(db, claimed.executionId, { status: RUN_STATUS.failed, errorMessage: message });
    }
  }
}

async function claimOne(db: Db, runner: Runner, free: number) {
  // A cheap look before the locking transaction: most wake-ups are log batches, not new runs.
  const any = await db.execution.findFirst({ where: { status: RUN_STATUS.queued }, select: { id: true } });
  if (!any || free < 1) return null;
  return db.$transaction(async (tx) => {
    const held = await tx.execution.count({ where: { runnerId: runner.id, status: { in: [...STARTED_RUN_STATUSES] } } });
    if (held >= runner.capacity) return null;
    const picked = await lockNextRun(tx, runner);
    if (!picked) return null;
    await tx.$executeRaw`UPDATE workspaces SET run_slot_at = now() WHERE id = ${picked.workspace_id}`;
    const now = new Date();
    const execution = await tx.execution.update({
      where: { id: picked.id },
      data: {
        status: RUN_STATUS.running,
        runnerId: runner.id,
        runnerName: runner.name,
        runnerInstance: `runner:${runner.id}`,
        startedAt: now,
        leaseExpiresAt: new Date(now.getTime() + runnerLeaseSeconds() * 1000),
      },
    });
    const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { status: RUN_STATUS.running, startedAt: now } });
    const secret = newSecret("agent");
    await tx.authToken.updateMany({
      where: { kind: "agent", name: agentTokenName(execution.id), revokedAt: null },
      data: { tokenHash: hashSecret(secret), expiresAt: new Date(now.getTime() + timeoutSeconds() * 1000 + killGraceMs() + 60_000) },
    });
    await recordEvents(tx, execution.workspaceId, [
      { type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) },
      executionEvent(execution),
    ]);
    return { executionId: execution.id, secret };
  });
}

/** How many workspaces' head runs one attempt tries to lock before it waits for the next wake-up. */
const CANDIDATES = 8;

/**
 * The run this runner takes, locked: round-robin across workspaces (the one whose run last got a
 * slot longest ago first, then the oldest queued run), each workspace's oldest queued run whose
 * profile's labels the runner has all of, skipping workspaces at their max_concurrent_runs and
 * those whose owners chose runners other than this one (a row in workspace_runner_choices that
 * does not list it). A dedicated runner takes only the workspaces whose row lists it.
 * Bounded: a skip scan visits each workspace with queued runs once on
 * executions(status, workspace_id, created_at), and takes one row per workspace from the same
 * index, never every queued run. The candidates are read without locks, then locked one by one
 * with SKIP LOCKED (a row another claim holds is passed over) and the status checked again under
 * the lock, so two claims never take the same run. A workspace's cap holds under concurrent
 * claims too: only its oldest claimable run is a candidate, and a claim that read it before
 * another took it finds it no longer queued.
 */
async function lockNextRun(tx: Tx, runner: Runner) {
  const queued = RUN_STATUS.queued;
  const candidates = await tx.$queryRaw<{ id: string; workspace_id: string }[]>`
    ${QUEUED_WORKSPACES_CTE}
    SELECT head.id, w.id AS workspace_id
    FROM queued_workspaces q
    JOIN workspaces w ON w.id = q.workspace_id
    LEFT JOIN workspace_runner_choices c ON c.workspace_id = w.id
    CROSS JOIN LATERAL (
      SELECT e.id, e.created_at FROM executions e
      WHERE e.status = ${queued} AND e.workspace_id = q.workspace_id
        AND COALESCE(e.agent_profile -> 'labels', '[]'::jsonb) <@ ${JSON.stringify(runner.labels)}::jsonb
      ORDER BY e.created_at, e.id LIMIT 1
    ) head
    WHERE (w.max_concurrent_runs IS NULL
           OR w.max_concurrent_runs > (SELECT count(*) FROM executions r
                                       WHERE r.status IN (${RUN_STATUS.running}, ${RUN_STATUS.waiting_for_input}) AND r.workspace_id = w.id))
      AND CASE WHEN c.workspace_id IS NULL THEN NOT ${runner.dedicated}::boolean
               ELSE ${runner.id}::text = ANY(COALESCE(c.runner_ids, '{}'::text[])) END
    ORDER BY w.run_slot_at ASC NULLS FIRST, head.created_at, head.id
    LIMIT ${CANDIDATES}`;
  for (const candidate of candidates) {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM executions WHERE id = ${candidate.id} AND status = ${queued} FOR UPDATE SKIP LOCKED`;
    if (locked.length > 0) return candidate;
  }
  return null;
}
