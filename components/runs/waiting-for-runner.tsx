"use client";

import type { Card, WaitingForRunner } from "@/lib/client/types";

// A queued run that no online runner can take says so, with the reason, on its card and in its
// run view: it never sits silently in the queue (docs/runners.md). The server's message says it in
// full ("Waiting for a runner: none is online").

/** In the run view, while the run is queued. */
export function WaitingForRunnerNote({ waiting }: { waiting: WaitingForRunner | undefined }) {
  if (!waiting) return null;
  return (
    <p
      data-testid="run-waiting-for-runner"
      data-reason={waiting.reason}
      role="status"
      className="mb-2 rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {waiting.message}
    </p>
  );
}

/** On the card, under "Queued", while its newest run waits: the reason on a line of its own. */
export function CardRunnerWait({ task }: { task: Pick<Card, "latest_run_waiting_for_runner"> }) {
  const waiting = task.latest_run_waiting_for_runner;
  if (!waiting) return null;
  return (
    <span data-testid="card-waiting-for-runner" data-reason={waiting.reason} className="basis-full text-amber-900 dark:text-amber-200">
      {waiting.message}
    </span>
  );
}
