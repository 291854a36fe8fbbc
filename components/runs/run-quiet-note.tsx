"use client";

import { useEffect, useState } from "react";
import { RUN_STATUS } from "@/lib/runs/statuses";

// Runs that went quiet: a running agent that has sent nothing for AGENT_SILENCE_SECONDS says so
// ("no output for N min"), and a run that succeeded without a message, a tool call or a change is
// marked "finished with no output", so neither passes for a run that did its work.

interface Quiet {
  status: string;
  started_at: string;
  last_activity_at: string | null;
  silence_after_seconds?: number;
}

/** How long the agent has been quiet, once past the threshold ("4 min", or "20 s" under a minute); null while it talks or once it ended. */
export function useSilentMinutes(execution: Quiet | undefined): string | null {
  const [now, setNow] = useState(() => Date.now());
  // Only a running agent can be quiet: a queued run has no agent yet (it says why it waits), and one
  // waiting for input waits for a person.
  const active = execution?.status === RUN_STATUS.running;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, [active]);
  if (!execution || !active) return null;
  const last = Date.parse(execution.last_activity_at ?? execution.started_at);
  const quiet = (now - last) / 1000;
  if (quiet < (execution.silence_after_seconds ?? 300)) return null;
  return quiet >= 60 ? `${Math.floor(quiet / 60)} min` : `${Math.floor(quiet)} s`;
}

export function RunQuietNote({ execution, noOutput }: { execution: Quiet | undefined; noOutput: boolean }) {
  const minutes = useSilentMinutes(execution);
  if (minutes !== null) {
    return (
      <p data-testid="run-quiet" role="status" className="mb-2 text-sm font-medium text-amber-800 dark:text-amber-300">
        No output for {minutes}
      </p>
    );
  }
  if (noOutput && execution?.status === RUN_STATUS.succeeded) {
    return (
      <p data-testid="run-quiet" className="mb-2 text-sm font-medium text-amber-800 dark:text-amber-300">
        Finished with no output: the agent sent no message, called no tool and changed nothing.
      </p>
    );
  }
  return null;
}

/** The card's running label: "Agent running", or "Agent running · no output for N min" once the agent went quiet. */
export function RunningLabel({
  task,
}: {
  task: { latest_run_status: string | null; latest_run_activity_at?: string | null; latest_run_silence_seconds?: number | null };
}) {
  const at = task.latest_run_activity_at ?? null;
  const minutes = useSilentMinutes(
    at && task.latest_run_status
      ? {
          status: task.latest_run_status,
          started_at: at,
          last_activity_at: at,
          silence_after_seconds: task.latest_run_silence_seconds ?? undefined,
        }
      : undefined,
  );
  if (minutes === null) return <>Agent running</>;
  return (
    <span data-testid="card-run-quiet" className="font-medium text-amber-800 dark:text-amber-300">
      Agent running · no output for {minutes}
    </span>
  );
}
