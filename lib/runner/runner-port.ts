import type { z } from "zod";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";
import type { PreparedWorkdir, WorkdirLog } from "@/lib/git/workdir/workdir";
import type { answerResponse, finishBody, Job, permissionResponse, updateExecutionBody } from "@/lib/runners/protocol-schemas";

// Everything the runner's engine asks of the board, in the protocol's terms (docs/runners.md,
// "Protocol"). The runner process speaks it over HTTP (http-port.ts); the server's embedded runner,
// until it becomes a process of its own, through the same domain functions (db-port.ts).

export type Outcome = z.input<typeof finishBody>;
export type ExecutionFacts = z.input<typeof updateExecutionBody>;

export interface Concluded {
  /** The run must fail although the agent succeeded (in words). */
  failed?: string;
  changes?: Outcome["changes"];
}

export interface RunnerPort {
  /** Claimed jobs, at most `room`; an HTTP port holds the request open (long poll) while there are none. */
  claim(room: number): Promise<Job[]>;
  /** Renews the runs' leases; returns those to stop, with the reason. */
  heartbeat(executionIds: string[]): Promise<{ id: string; reason: string }[]>;
  /** Stores a batch; `firstSeq` is the first entry's number. `stalled` hears when the server cannot be reached and when it can again. */
  log(executionId: string, entries: NewLogEntry[], firstSeq: number, stalled?: (yes: boolean) => void): Promise<void>;
  update(executionId: string, facts: ExecutionFacts): Promise<void>;
  ask(executionId: string, request: RequestPermissionRequest): Promise<z.output<typeof permissionResponse>>;
  answer(executionId: string, questionId: string, signal: AbortSignal): Promise<z.output<typeof answerResponse>>;
  settle(executionId: string, questionId: string): Promise<void>;
  prepare(job: Job, log: WorkdirLog): Promise<PreparedWorkdir>;
  conclude(job: Job, cwd: string, log: WorkdirLog, agentSucceeded: boolean): Promise<Concluded>;
  finish(executionId: string, outcome: Outcome): Promise<void>;
  /** Hands a run back unfinished (the runner is stopping): it is queued again for another runner. Ports without it cancel instead. */
  release?(executionId: string, reason: string): Promise<void>;
}
