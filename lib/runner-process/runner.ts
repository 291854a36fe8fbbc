import { setTimeout as sleep } from "node:timers/promises";
import { RUN_STATUS } from "@/lib/runs/statuses";
import type { Job } from "@/lib/runner-protocol";
import { killGraceMs } from "@/lib/platform/runner-config";
import type { RunnerPort } from "@/lib/runner-process/runner-port";
import { runJob } from "@/lib/runner-process/run-job";
import type { Active, StopStatus } from "@/lib/runner-process/job-types";
import { killGroup, stopGroup } from "@/lib/platform/processes";

// A runner: it claims jobs through its port (the protocol over HTTP, held open while there are
// none), runs each (run-job.ts), at most `capacity` at once, and heartbeats while it has any, which
// renews the jobs' leases and says which to stop (a cancel, a lost lease). The server holds each
// heartbeat until a run is to stop or `heartbeatMs` has passed, so a cancel arrives at once.

/** After session/cancel, how long an ACP agent has to end its turn before its process group is stopped. */
const ACP_CANCEL_MS = 2000;

export interface RunnerOptions {
  capacity: number;
  /** The longest between two renewals of a run's lease (lowered to a third of a job's lease). */
  heartbeatMs: number;
}

export class Runner {
  private readonly active = new Map<string, Active>();
  private stopping = false;
  private slotFreed: () => void = () => {};
  /** Runs the server said to stop: no longer named in heartbeats, which would answer at once for them. */
  private readonly told = new Set<string>();
  private beatMs: number;
  private beating = false;
  /** Cuts the heartbeat in flight short: the runs under way changed, and the next names them as they are. */
  private beatCut = new AbortController();

  constructor(
    private readonly port: RunnerPort,
    private readonly options: RunnerOptions,
  ) {
    this.beatMs = options.heartbeatMs;
  }

  start() {
    void this.claimLoop();
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
  }

  /** At exit, nothing of ours may outlive us. */
  killAll() {
    for (const entry of this.active.values()) if (entry.child?.pid) killGroup(entry.child.pid, "SIGTERM");
  }

  get running() {
    return this.active.size;
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

  /**
   * While runs are under way, one heartbeat after another. Each renews the leases at once, so with
   * at most `beatMs` between two, at least three come in a lease and one late or lost answer never
   * costs a run. An answer that came sooner with nothing to stop (a failed call, a server that does
   * not hold heartbeats) waits out the rest of `beatMs`, so the pace never exceeds it.
   */
  private async beatLoop() {
    if (this.beating) return;
    this.beating = true;
    while (this.active.size > 0) {
      const asked = Date.now();
      const cut = (this.beatCut = new AbortController());
      const named = [...this.active.keys()].filter((id) => !this.told.has(id));
      let told = false;
      try {
        if (named.length > 0)
          for (const { id, reason } of await this.port.heartbeat(named, { seconds: this.beatMs / 1000, signal: cut.signal })) {
            const entry = this.active.get(id);
            if (!entry) continue;
            this.told.add(id);
            told = true;
            this.terminate(entry, RUN_STATUS.cancelled, reason);
          }
      } catch (error) {
        if (!cut.signal.aborted) console.error(`[taskboard] runner: heartbeat failed: ${(error as Error).message}`);
      }
      if (!told) await sleep(Math.max(0, asked + this.beatMs - Date.now()), undefined, { signal: cut.signal }).catch(() => {});
    }
    this.beating = false;
  }

  private launch(job: Job) {
    const id = job.execution_id;
    this.beatMs = Math.min(this.beatMs, Math.max(200, (job.lease_seconds * 1000) / 3));
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
      terminate: (status, message) => this.terminate(entry, status, message),
    };
    this.active.set(id, entry);
    this.beatCut.abort();
    void this.beatLoop();
    entry.done = runJob(this.port, entry)
      .catch(async (error) => {
        console.error(`[taskboard] execution ${id}: ${(error as Error).stack}`);
        await this.port.finish(id, { status: RUN_STATUS.failed, error_message: `runner error: ${(error as Error).message}` });
      })
      .catch(() => {})
      .finally(() => {
        for (const timer of entry.timers) clearTimeout(timer);
        this.active.delete(id);
        this.told.delete(id);
        this.beatCut.abort();
        console.log(`[taskboard] runner: execution ${id} is over`);
        this.slotFreed();
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
}
