import type { RunnerHandle } from "@/lib/runs/runner-handle";
import { RUN_STATUS } from "@/lib/runs/statuses";
import type { Job } from "@/lib/runners/protocol-schemas";
import { killGraceMs } from "@/lib/platform/runner-config";
import type { RunnerPort } from "@/lib/runner/runner-port";
import { runJob } from "@/lib/runner/run-job";
import type { Active, StopStatus } from "@/lib/runner/job-types";
import { killGroup, stopGroup } from "@/lib/platform/processes";

// A runner: it claims jobs through its port (the protocol over HTTP for a runner process, direct
// calls for the server's embedded runner), runs each (run-job.ts), at most `capacity` at once,
// and heartbeats, which renews the jobs' leases and says which to stop (a cancel elsewhere).

/** After session/cancel, how long an ACP agent has to end its turn before its process group is stopped. */
const ACP_CANCEL_MS = 2000;

export interface RunnerOptions {
  capacity: number;
  /** The port holds claims open (long poll): claim in a loop rather than on wake-ups. */
  longPoll: boolean;
  heartbeatMs: number;
}

export class Runner implements RunnerHandle {
  private readonly active = new Map<string, Active>();
  private readonly startWaiters = new Map<string, Set<() => void>>();
  private ticking = false;
  private again = false;
  private stopping = false;
  private slotFreed: () => void = () => {};

  constructor(
    private readonly port: RunnerPort,
    private readonly options: RunnerOptions,
  ) {}

  private beat: NodeJS.Timeout | undefined;
  private beatMs = 0;

  start() {
    this.beatEvery(this.options.heartbeatMs);
    if (this.options.longPoll) void this.claimLoop();
    else this.wake();
  }

  /**
   * Stops claiming; resolves when the runs under way have finished, or after `graceMs` once it has
   * stopped their agents: each run is then handed back to the server, queued again for another
   * runner, with `handBack` (and a port that can), else cancelled.
   */
  async stop(graceMs = 0, handBack = false): Promise<void> {
    this.stopping = true;
    this.slotFreed();
    const all = Promise.all([...this.active.values()].map((entry) => entry.done));
    const stopAll = () => {
      for (const entry of this.active.values()) {
        if (handBack && this.port.release) entry.handBack = `it was stopped after ${graceMs / 1000} s of grace`;
        this.terminate(entry, RUN_STATUS.cancelled, "the runner was stopped");
      }
    };
    const timer = graceMs > 0 ? setTimeout(stopAll, graceMs) : undefined;
    if (graceMs <= 0) stopAll();
    await all;
    clearTimeout(timer);
    clearInterval(this.beat);
  }

  /** At exit, nothing of ours may outlive us. */
  killAll() {
    for (const entry of this.active.values()) if (entry.child?.pid) killGroup(entry.child.pid, "SIGTERM");
  }

  get running() {
    return this.active.size;
  }

  wake() {
    if (this.options.longPoll) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick().finally(() => {
      this.ticking = false;
    });
  }

  isLocal(executionId: string) {
    return this.active.has(executionId);
  }

  /** Resolves once this process has started the execution, or has left it queued (no room here). */
  waitStarted(executionId: string, timeoutMs = 3000): Promise<void> {
    const entry = this.active.get(executionId);
    // Not child.pid: the process exists before its runner_pid is recorded, and a read in between
    // (another connection on PostgreSQL) would answer the start without it.
    if (entry?.started) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.startWaiters.get(executionId) ?? new Set();
      this.startWaiters.set(executionId, set);
      const timer = setTimeout(done, timeoutMs);
      set.add(done);
      function done() {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      }
    });
  }

  /** SIGTERM to the process group, SIGKILL after the grace period; resolves when it is recorded. */
  async cancel(executionId: string, message: string): Promise<boolean> {
    const entry = this.active.get(executionId);
    if (!entry) return false;
    this.terminate(entry, RUN_STATUS.cancelled, message);
    await entry.done;
    return true;
  }

  private async tick() {
    try {
      do {
        this.again = false;
        await this.heartbeat();
        const room = this.options.capacity - this.active.size;
        if (room > 0 && !this.stopping) for (const job of await this.port.claim(room)) this.launch(job);
      } while (this.again);
    } catch (error) {
      console.error(`[taskboard] runner: ${(error as Error).message}`);
    }
    // Whoever waits for an execution this pass did not take (no room, or another instance has it) stops waiting.
    for (const [id, waiters] of this.startWaiters) {
      if (!this.active.has(id)) for (const done of [...waiters]) done();
    }
  }

  private async claimLoop() {
    while (!this.stopping) {
      const room = this.options.capacity - this.active.size;
      if (room <= 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        for (const job of await this.port.claim(room)) this.launch(job);
      } catch (error) {
        if (this.stopping) break;
        console.error(`[taskboard] runner: claim failed: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async heartbeat() {
    if (this.active.size === 0) return;
    try {
      for (const { id, reason } of await this.port.heartbeat([...this.active.keys()])) {
        const entry = this.active.get(id);
        if (entry) this.terminate(entry, RUN_STATUS.cancelled, reason);
      }
    } catch (error) {
      console.error(`[taskboard] runner: heartbeat failed: ${(error as Error).message}`);
    }
  }

  /** Heartbeats come at least three times a lease, so one late or lost answer never costs a run. */
  private beatEvery(ms: number) {
    if (this.beat && ms >= this.beatMs) return;
    clearInterval(this.beat);
    this.beatMs = ms;
    this.beat = setInterval(() => void this.heartbeat(), ms);
    this.beat.unref();
  }

  private launch(job: Job) {
    const id = job.execution_id;
    this.beatEvery(Math.max(200, (job.lease_seconds * 1000) / 3));
    console.log(`[taskboard] runner: running execution ${id} (task #${job.task.number} ${job.task.title})`);
    const entry: Active = {
      job,
      child: null,
      acp: false,
      abort: new AbortController(),
      stop: null,
      handBack: null,
      done: Promise.resolve(),
      timers: [],
      started: false,
      onStarted: () => this.notifyStarted(id),
      terminate: (status, message) => this.terminate(entry, status, message),
    };
    this.active.set(id, entry);
    entry.done = runJob(this.port, entry)
      .catch(async (error) => {
        console.error(`[taskboard] execution ${id}: ${(error as Error).stack}`);
        await this.port.finish(id, { status: RUN_STATUS.failed, error_message: `runner error: ${(error as Error).message}` });
      })
      .catch(() => {})
      .finally(() => {
        for (const timer of entry.timers) clearTimeout(timer);
        this.active.delete(id);
        this.notifyStarted(id);
        console.log(`[taskboard] runner: execution ${id} is over`);
        this.slotFreed();
        this.wake();
      });
  }

  /**
   * Cancel and timeout. An ACP agent first gets session/cancel (a pending permission is answered
   * `cancelled`) and a moment to end its turn; then, as for any agent, SIGTERM to its process
   * group and SIGKILL after the grace period.
   */
  private terminate(entry: Active, status: StopStatus, message: string) {
    if (entry.stop) return;
    entry.stop = { status, message };
    entry.abort.abort();
    const pid = entry.child?.pid;
    if (!pid) return;
    if (entry.acp) entry.timers.push(setTimeout(() => stopGroup(pid, killGraceMs()), ACP_CANCEL_MS));
    else stopGroup(pid, killGraceMs());
  }

  private notifyStarted(executionId: string) {
    for (const done of [...(this.startWaiters.get(executionId) ?? [])]) done();
    this.startWaiters.delete(executionId);
  }
}
