"use client";

import { useEffect, useState } from "react";
import { ACTIVE_RUN_STATUSES } from "@/lib/client/types";
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

/** Minutes since the agent's last word, once past the threshold; null while it talks or once it ended. */
export function useSilentMinutes(execution: Quiet | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  const active = execution ? ACTIVE_RUN_STATUSES.has(execution.status) && execution.status !== RUN_STATUS.waiting_for_input : false;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [active]);
  if (!execution || !active) return null;
  const last = Date.parse(execution.last_activity_at ?? execution.started_at);
  const quiet = (now - last) / 1000;
  return quiet >= (execution.silence_after_seconds ?? 300) ? Math.floor(quiet / 60) : null;
}

export function RunQuietNote({ execution, noOutput }: { execution: Quiet | undefined; noOutput: boolean }) {
  const minutes = useSilentMinutes(execution);
  if (minutes !== null) {
    return (
      <p data-testid="run-quiet" role="status" className="mb-2 text-sm font-medium text-amber-800 dark:text-amber-300">
        No output for {minutes} min
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
