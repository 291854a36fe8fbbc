"use client";

import type { Task, WaitingForRunner } from "@/lib/client/types";
import { RUN_STATUS } from "@/lib/runs/statuses";

// A queued run that no online runner can take says so, with the reason, on its card and in its
// run view: it never sits silently in the queue (docs/runners.md).

/** In the run view: the server's reason, in full. */
export function WaitingForRunnerNote({ waiting }: { waiting: WaitingForRunner | null | undefined }) {
  if (!waiting) return null;
  return (
    <p
      data-testid="run-waiting-for-runner"
      data-reason={waiting.reason}
      role="status"
      className="mb-2 rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <span className="font-semibold">Waiting for a runner:</span> {waiting.message}
    </p>
  );
}

/** On the card, under "Queued", while its newest run waits: the reason on a line of its own. */
export function CardRunnerWait({ task }: { task: Task }) {
  const waiting = latestRunWait(task);
  if (!waiting) return null;
  return (
    <span data-testid="card-waiting-for-runner" data-reason={waiting.reason} className="basis-full text-amber-900 dark:text-amber-200">
      <span className="font-medium">Waiting for a runner:</span> {waiting.message}
    </span>
  );
}

/** The newest run's wait, while it is queued (the board's runs are newest first). */
function latestRunWait(task: Task): WaitingForRunner | null {
  if (task.latest_run_status !== RUN_STATUS.queued) return null;
  // TODO(h/claim): the runs' schema gains waiting_for_runner; until it lands the field is read loosely.
  const latest = task.task_runs[0] as { waiting_for_runner?: WaitingForRunner | null } | undefined;
  return latest?.waiting_for_runner ?? null;
}
