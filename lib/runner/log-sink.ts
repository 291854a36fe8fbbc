import { StringDecoder } from "node:string_decoder";

// Turns an agent's stdout and stderr into numbered lines and hands them to `flush` in batches, at
// most once per interval however fast the agent prints. Memory stays bounded: a line longer than
// MAX_LINE_CHARS is cut into several, at most MAX_PENDING_CHARS wait for a flush (beyond that the
// caller pauses the streams, so the pipe pushes back on the agent), and only the last TAIL_LINES
// are kept for the report.

export const MAX_LINE_CHARS = 16 * 1024;
const MAX_PENDING_CHARS = 2 * 1024 * 1024;
const TAIL_LINES = 50;

export interface LogBatch {
  firstLine: number;
  lines: string[];
}

export class LogSink {
  private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  private readonly partial = { stdout: "", stderr: "" };
  private pending: string[] = [];
  private pendingChars = 0;
  private written = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private drainWaiters: (() => void)[] = [];
  readonly tail: string[] = [];
  lastStderrLine = "";
  lastActivityAt: Date | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly flush: (batch: LogBatch) => Promise<void>,
  ) {}

  /** Lines seen so far, flushed or not. */
  get lineCount(): number {
    return this.written + this.pending.length;
  }

  /** Returns false when the caller should pause its streams until drained(). */
  write(stream: "stdout" | "stderr", chunk: Buffer): boolean {
    let text = this.partial[stream] + this.decoders[stream].write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      this.push(stream, text.slice(start, end));
      start = end + 1;
    }
    text = text.slice(start);
    while (text.length > MAX_LINE_CHARS) {
      this.push(stream, text.slice(0, MAX_LINE_CHARS));
      text = text.slice(MAX_LINE_CHARS);
    }
    this.partial[stream] = text;
    this.lastActivityAt = new Date();
    this.schedule();
    return this.pendingChars < MAX_PENDING_CHARS;
  }

  drained(): Promise<void> {
    if (this.pendingChars < MAX_PENDING_CHARS) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** After the process has exited and its streams ended: the unterminated last lines, then a final flush. */
  async close(): Promise<void> {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.partial[stream] + this.decoders[stream].end();
      this.partial[stream] = "";
      if (rest) this.push(stream, rest);
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushNow();
  }

  private push(stream: "stdout" | "stderr", raw: string) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    this.pending.push(line);
    this.pendingChars += line.length + 1;
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    if (stream === "stderr" && line.trim()) this.lastStderrLine = line.trim().slice(0, 500);
  }

  private schedule() {
    if (this.timer || this.pending.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushNow().then(() => this.schedule());
    }, this.intervalMs);
  }

  private flushNow(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      const batch = { firstLine: this.written, lines: this.pending };
      this.pending = [];
      this.pendingChars = 0;
      this.written += batch.lines.length;
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      try {
        await this.flush(batch);
      } catch (error) {
        // A lost batch leaves a gap in the stored log but must not stop the agent or the bookkeeping.
        console.error(`[taskboard] could not store ${batch.lines.length} log lines: ${(error as Error).message}`);
      }
    });
    return this.flushing;
  }
}
