import { StringDecoder } from "node:string_decoder";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";
import type { TakeMore } from "@/lib/runner-process/runner-port";
import { agentLogMaxBytes } from "@/lib/platform/runner-config";

// Collects an execution's log entries (a command agent's stdout and stderr lines as `output`
// entries, an ACP agent's session updates, the runner's own notes) and hands them to `flush` in
// batches: one on its way at a time, the next as soon as it is stored, and what comes meanwhile
// joins the batch on its way when it is actually sent (`more`). The pace is the runner's: its
// courier sends all runs' batches together (lib/runner-process/log-courier.ts). Memory stays bounded: a line longer than MAX_LINE_CHARS is cut into several, at most
// `bufferChars` (RUNNER_LOG_BUFFER_BYTES, 2 MB) wait besides the batch being delivered, and only
// the last TAIL_LINES output lines are kept for the report.
// Past the bound two cases differ. While deliveries succeed (a slow store) the caller pauses a
// command agent's pipes, so the agent is slowed and nothing is lost. While a delivery is stalled
// (the server unreachable, `stalled(true)` from the flush) waiting could take minutes and an ACP
// agent's updates cannot be paused anyway: entries past the bound are dropped and counted, and one
// `error` entry {message, dropped} takes their place in the log, so the gap is said where it is.
// A run's log is bounded too (AGENT_LOG_MAX_BYTES, issue #35): past it the agent's output and
// updates are dropped and counted, one `error` entry {truncated} says so where it starts and one
// at the end says how much was dropped; the run goes on, and the report's tail still sees every line.

export const MAX_LINE_CHARS = 16 * 1024;
const TAIL_LINES = 50;

/** RUNNER_LOG_BUFFER_BYTES: how much log may wait per run (characters, about bytes). */
export function logBufferChars(): number {
  const configured = Number(process.env.RUNNER_LOG_BUFFER_BYTES);
  return Number.isInteger(configured) && configured > 0 ? configured : 2 * 1024 * 1024;
}

/**
 * The runner's own notes (the prompt, a permission question, the stop, errors, git steps) are
 * kept past the cap, in this much more room: an ACP agent names its updates' types itself, so a
 * note's type alone must not make an agent's flood unbounded.
 */
const NOTE_ROOM_BYTES = 1024 * 1024;
const NOTE_TYPES = new Set(["prompt", "permission", "stop", "error", "git"]);

/**
 * Delivers one batch; calls `stalled(true)` while it cannot (it keeps trying), `stalled(false)` once it can again. `more`
 * takes what came since the batch was handed over, for the request that carries it; `now`: settled() waits for it.
 */
export type Flush = (
  entries: NewLogEntry[],
  options: { stalled: (yes: boolean) => void; more: TakeMore; now: boolean },
) => Promise<unknown>;

export class LogSink {
  private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  private readonly partial = { stdout: "", stderr: "" };
  private pending: NewLogEntry[] = [];
  private pendingSizes: number[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private delivering = false;
  private drainWaiters: (() => void)[] = [];
  private stalled = false;
  private dropped = 0;
  private readonly cap = { logged: 0, droppedBytes: 0, droppedEntries: 0, counted: false };
  readonly tail: string[] = [];
  lastStderrLine = "";
  lastActivityAt: Date | null = null;

  constructor(
    private readonly flush: Flush,
    private readonly bufferChars = logBufferChars(),
    private readonly maxBytes = agentLogMaxBytes(),
  ) {}

  /** Output of a command agent (or an ACP agent's stderr). Returns false when the caller should pause its streams until drained(). */
  write(stream: "stdout" | "stderr", chunk: Buffer): boolean {
    let text = this.partial[stream] + this.decoders[stream].write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      this.pushLine(stream, text.slice(start, end));
      start = end + 1;
    }
    text = text.slice(start);
    while (text.length > MAX_LINE_CHARS) {
      this.pushLine(stream, text.slice(0, MAX_LINE_CHARS));
      text = text.slice(MAX_LINE_CHARS);
    }
    this.partial[stream] = text;
    this.schedule();
    return this.roomy();
  }

  /** One structured entry (an ACP session/update as received, or a runner note). */
  push(type: string, update: Record<string, unknown>, size = 256): boolean {
    this.add({ type, update, at: new Date() }, size, size + 32);
    this.schedule();
    return this.roomy();
  }

  /** Resolves when the caller may resume its streams: the buffer has room, or the delivery is stalled (then entries are dropped). */
  drained(): Promise<void> {
    if (this.roomy()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Entries dropped since the last `error` entry that said so. */
  get droppedSoFar() {
    return this.dropped;
  }

  private roomy() {
    return this.stalled || this.pendingChars < this.bufferChars;
  }

  /** Resolves once everything pushed so far is stored (or failed to be). */
  settled(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.flushNow(true);
  }

  /** After the process has exited and its streams ended: the unterminated last lines, then a final flush. */
  async close(): Promise<void> {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.partial[stream] + this.decoders[stream].end();
      this.partial[stream] = "";
      if (rest) this.pushLine(stream, rest);
    }
    this.sayTruncated();
    await this.settled();
  }

  private pushLine(stream: "stdout" | "stderr", raw: string) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    this.add({ type: "output", update: { stream, text: line }, at: new Date() }, line.length + 32, Buffer.byteLength(line) + 32);
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    if (stream === "stderr" && line.trim()) this.lastStderrLine = line.trim().slice(0, 500);
  }

  /** `size` counts toward the buffer (characters), `bytes` toward the run's cap (AGENT_LOG_MAX_BYTES). */
  private add(entry: NewLogEntry, size: number, bytes = size) {
    this.lastActivityAt = entry.at ?? new Date();
    if (this.overCap(entry.type, bytes)) return;
    if (this.stalled && this.pendingChars >= this.bufferChars) {
      this.dropped++;
      return;
    }
    this.sayDropped();
    this.pending.push(entry);
    this.pendingSizes.push(size);
    this.pendingChars += size;
  }

  /**
   * True when the entry is past the run's cap: it is counted, and the first one past it is said.
   * From then on the agent's entries are all dropped, so the log has no holes after the notice.
   */
  private overCap(type: string, bytes: number): boolean {
    const fits = NOTE_TYPES.has(type)
      ? this.cap.logged + bytes <= this.maxBytes + NOTE_ROOM_BYTES
      : this.cap.droppedEntries === 0 && this.cap.logged + bytes <= this.maxBytes;
    if (fits) {
      this.cap.logged += bytes;
      return false;
    }
    if (this.cap.droppedEntries === 0) {
      const message = `truncated: the log reached AGENT_LOG_MAX_BYTES (${this.maxBytes} bytes); the agent's further output is dropped, and the run goes on`;
      this.pending.push({ type: "error", update: { message, truncated: true, max_bytes: this.maxBytes }, at: new Date() });
      this.pendingSizes.push(message.length + 64);
      this.pendingChars += message.length + 64;
    }
    this.cap.droppedBytes += bytes;
    this.cap.droppedEntries++;
    return true;
  }

  /** At the end, once: how much the cap dropped. */
  private sayTruncated() {
    const { droppedBytes, droppedEntries } = this.cap;
    if (droppedEntries === 0 || this.cap.counted) return;
    this.cap.counted = true;
    const message = `truncated: ${droppedBytes} bytes dropped (${droppedEntries} log ${droppedEntries === 1 ? "entry" : "entries"} past AGENT_LOG_MAX_BYTES)`;
    this.pending.push({
      type: "error",
      update: { message, truncated: true, dropped_bytes: droppedBytes, dropped_entries: droppedEntries },
      at: new Date(),
    });
    this.pendingSizes.push(message.length + 64);
    this.pendingChars += message.length + 64;
  }

  /** Where a gap ends (the next entry kept, or the batch taken): one entry says how many are missing. */
  private sayDropped() {
    if (this.dropped === 0) return;
    const message = `${this.dropped} log ${this.dropped === 1 ? "entry was" : "entries were"} dropped while the server was unreachable`;
    this.pending.push({ type: "error", update: { message, dropped: this.dropped }, at: new Date() });
    this.pendingSizes.push(message.length + 64);
    this.dropped = 0;
  }

  /** The pending entries from the front while `fits` says yes: they join the batch on its way. */
  private takeMore(fits: (entry: NewLogEntry) => boolean): NewLogEntry[] {
    let count = 0;
    while (count < this.pending.length && fits(this.pending[count])) count++;
    const taken = this.pending.splice(0, count);
    this.pendingChars -= this.pendingSizes.splice(0, count).reduce((sum, size) => sum + size, 0);
    if (this.roomy()) for (const resolve of this.drainWaiters.splice(0)) resolve();
    return taken;
  }

  private setStalled(yes: boolean) {
    if (this.stalled === yes) return;
    this.stalled = yes;
    // Paused streams go on: what does not fit is dropped rather than the agent held for minutes.
    if (yes) for (const resolve of this.drainWaiters.splice(0)) resolve();
  }

  private schedule() {
    // While a batch is on its way, what comes meanwhile waits for it (and goes as one batch after).
    if (this.timer || this.delivering || this.pending.length === 0) return;
    // A moment for the rest of what the agent wrote at once, so one write is one batch.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushNow();
    }, 0);
  }

  private flushNow(now = false): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      this.sayDropped();
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      this.pendingSizes = [];
      this.pendingChars = 0;
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      this.delivering = true;
      try {
        await this.flush(batch, { stalled: (yes) => this.setStalled(yes), more: (fits) => this.takeMore(fits), now });
      } catch (error) {
        // A lost batch leaves a gap in the stored log but must not stop the agent or the bookkeeping.
        console.error(`[taskboard] could not store ${batch.length} log entries: ${(error as Error).message}`);
      } finally {
        this.delivering = false;
        this.setStalled(false);
      }
      this.schedule();
    });
    return this.flushing;
  }
}
