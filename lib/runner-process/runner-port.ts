import type { z } from "zod";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";
import type {
  answerResponse,
  bundleResponse,
  diffBody,
  finishBody,
  Job,
  permissionResponse,
  remoteResponse,
  updateExecutionBody,
} from "@/lib/runner-protocol";

// Everything the runner's engine asks of the board, in the protocol's terms (docs/runners.md,
// "Protocol"), spoken over HTTP by http-port.ts. A port of its own so the engine's tests and the
// protocol's client stay apart.

export type Outcome = z.input<typeof finishBody>;
export type ExecutionFacts = z.input<typeof updateExecutionBody>;

export interface Concluded {
  /** The run must fail although the agent succeeded (in words). */
  failed?: string;
  changes?: Outcome["changes"];
}

/** The entries that came since, from the front, while `fits` says yes to each. */
export type TakeMore = (fits: (entry: NewLogEntry) => boolean) => NewLogEntry[];

export interface LogOptions {
  /** Hears when the server cannot be reached and when it can again. */
  stalled?: (yes: boolean) => void;
  /** The run's entries that came since, taken when the batch is actually sent: they go with it, not in the next request. */
  more?: TakeMore;
  /** Someone waits for this batch (a git step, the run's end): it does not wait for the runner's pace. */
  now?: boolean;
}

export interface RunnerPort {
  /** Claimed jobs, at most `room`; an HTTP port holds the request open (long poll) while there are none. */
  claim(room: number): Promise<Job[]>;
  /**
   * Renews the runs' leases; returns those to stop, with the reason. `hold`: the server may keep the
   * answer up to that long while none is to stop (a long poll), and answers at once when one is.
   */
  heartbeat(executionIds: string[], hold: { seconds: number; signal: AbortSignal }): Promise<{ id: string; reason: string }[]>;
  /** Stores a batch; `firstSeq` is the first entry's number. */
  log(executionId: string, entries: NewLogEntry[], firstSeq: number, options?: LogOptions): Promise<void>;
  update(executionId: string, facts: ExecutionFacts): Promise<void>;
  ask(executionId: string, request: RequestPermissionRequest): Promise<z.output<typeof permissionResponse>>;
  answer(executionId: string, questionId: string, signal: AbortSignal): Promise<z.output<typeof answerResponse>>;
  settle(executionId: string, questionId: string): Promise<void>;
  /** git's way to the job's repository; `fresh` mints a new credential (git was refused); `push` asks leave to push that branch. */
  remote(executionId: string, options: { fresh?: boolean; push?: string }): Promise<z.output<typeof remoteResponse>>;
  diff(executionId: string, diff: z.input<typeof diffBody>): Promise<void>;
  /** The task branch's commits as a git bundle, for the server's clone; the answer says whether it took them. */
  bundle(executionId: string, bundle: Uint8Array): Promise<z.output<typeof bundleResponse>>;
  finish(executionId: string, outcome: Outcome): Promise<void>;
  /** Hands a run back unfinished (the runner is stopping): it is queued again for another runner. Ports without it cancel instead. */
  release?(executionId: string, reason: string): Promise<void>;
}
