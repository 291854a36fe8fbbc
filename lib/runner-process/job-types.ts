import type { ChildProcess } from "node:child_process";
import type { RUN_STATUS } from "@/lib/runs/statuses";
import type { Job } from "@/lib/runner-protocol";
import type { Outcome } from "@/lib/runner-process/runner-port";

// What the runner's parts share about one job under way (runner.ts, run-job.ts, acp-turn.ts).

export type StopStatus = typeof RUN_STATUS.cancelled | typeof RUN_STATUS.timed_out;
export type Exited = Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
export type Verdict = Pick<Outcome, "status" | "exit_code" | "error_message">;
export interface Ran {
  verdict: Verdict;
  /** The agent's own closing words (ACP), when it wrote no report file. */
  report: string | null;
  usage: Outcome["usage"];
  /** Whether the agent said or did anything: a message, a tool call or a plan (ACP), a line of output (command). */
  spoke: boolean;
}

export interface Active {
  job: Job;
  child: ChildProcess | null;
  acp: boolean;
  /** Aborted on cancel and timeout: an ACP agent gets session/cancel, a pending permission `cancelled`. */
  abort: AbortController;
  stop: { status: StopStatus; message: string } | null;
  /** Set when the runner stops the agent to hand the run back unfinished (why, in words). */
  handBack: string | null;
  done: Promise<void>;
  timers: NodeJS.Timeout[];
  /** Cancel and timeout (the runner's terminate). */
  terminate: (status: StopStatus, message: string) => void;
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
