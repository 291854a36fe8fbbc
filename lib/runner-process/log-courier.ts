import type { z } from "zod";
import { MAX_LOG_BATCH, MAX_LOG_RUNS, type logResponse } from "@/lib/runner-protocol";
import { ProtocolError } from "@/lib/runner-process/protocol-client";

// A runner's log requests, group-committed: while one request is on its way, the batches that the
// runs' sinks hand over wait, and go together in the next one (POST /api/runner/log). The runner,
// not each run, sets the pace: a request starts at most every `gapMs` (AGENT_LOG_FLUSH_MS) and
// takes whatever waits by then, so a busy runner sends a few requests a second however many agents
// it runs and however fast they talk, and the server's cost per flush does not grow with the runs
// (docs/runners.md). An idle runner's first batch leaves at once.
// A run's batches stay in order: a request holds at most one batch per run, and a run whose batch
// had to wait (the request was full) sends nothing newer before it.

/** A request body is at most 1 MiB (lib/api/handler.ts): requests are cut below that, in JSON characters. */
export const LOG_REQUEST_CHARS = 768 * 1024;

const SETTLE_MS = 5;

export interface WireBatch {
  execution_id: string;
  first_seq: number;
  entries: unknown[];
}

type Send = (batches: WireBatch[], stalled: (yes: boolean) => void) => Promise<z.output<typeof logResponse>>;

/** Adds the run's newer entries to its batch as it is sent, within the room left in the request. */
export type TopUp = (room: { chars: number; entries: number }) => { entries: unknown[]; chars: number };

export interface Delivery {
  stalled?: (yes: boolean) => void;
  topUp?: TopUp;
  /** Someone waits for it: the request leaves without waiting for the pace. */
  now?: boolean;
}

interface Submission extends Delivery {
  batch: WireBatch;
  chars: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class LogCourier {
  private queue: Submission[] = [];
  private sending = false;
  private lastSentAt = -Infinity;

  constructor(
    private readonly send: Send,
    private readonly gapMs = 0,
  ) {}

  /** Resolves once the batch is stored; rejects with the server's refusal of it (ProtocolError 404/409) or the request's failure. */
  deliver(batch: WireBatch, chars: number, delivery: Delivery = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, chars, ...delivery, resolve, reject });
      void this.pump();
    });
  }

  private async pump() {
    if (this.sending) return;
    this.sending = true;
    try {
      for (let first = true; this.queue.length > 0; first = false) {
        // After an answer, a moment for the runs it released to hand over their next batches, so
        // they go together rather than the first alone.
        const paced = this.queue.some((submission) => submission.now) ? 0 : this.lastSentAt + this.gapMs - Date.now();
        const wait = Math.max(paced, first ? 0 : SETTLE_MS);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.lastSentAt = Date.now();
        const taken = this.take();
        try {
          const answer = await this.send(
            taken.map((submission) => submission.batch),
            (yes) => taken.forEach((submission) => submission.stalled?.(yes)),
          );
          taken.forEach((submission, index) => {
            const result = answer.results[index];
            if (result?.error) submission.reject(new ProtocolError(result.error.status, { detail: result.error.detail }));
            else submission.resolve();
          });
        } catch (error) {
          for (const submission of taken) submission.reject(error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** The next request's batches, in the order they came; what does not fit waits. */
  private take(): Submission[] {
    const taken: Submission[] = [];
    const waiting: Submission[] = [];
    const held = new Set<string>();
    let chars = 0;
    let entries = 0;
    for (const submission of this.queue) {
      const { batch } = submission;
      const full =
        taken.length > 0 &&
        (taken.length >= MAX_LOG_RUNS || chars + submission.chars > LOG_REQUEST_CHARS || entries + batch.entries.length > MAX_LOG_BATCH);
      if (held.has(batch.execution_id) || full) {
        held.add(batch.execution_id);
        waiting.push(submission);
        continue;
      }
      held.add(batch.execution_id);
      taken.push(submission);
      chars += submission.chars;
      entries += batch.entries.length;
    }
    this.queue = waiting;
    // What the runs printed while their batches waited goes too, in the room that is left.
    for (const submission of taken) {
      if (!submission.topUp) continue;
      const added = submission.topUp({ chars: LOG_REQUEST_CHARS - chars, entries: MAX_LOG_BATCH - entries });
      submission.batch.entries.push(...added.entries);
      chars += added.chars;
      entries += added.entries.length;
    }
    return taken;
  }
}
