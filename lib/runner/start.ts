import crypto from "node:crypto";
import os from "node:os";
import type { Db } from "@/lib/db/client";
import { setRunnerHandle } from "@/lib/runs/runner-handle";
import { Runner } from "@/lib/runner/runner";
import { DbPort } from "@/lib/runner/db-port";
import { maxConcurrent, runnerPollMs } from "@/lib/platform/runner-config";
import { sweepOrphans } from "@/lib/runner/recovery";
import { startScheduler } from "@/lib/scheduler/scheduler";
import { startLeaseSweeper } from "@/lib/runners/expire-leases";
import { bubblewrapUsableAsync } from "@/lib/sandbox/mode";
import { sweepSandboxes } from "@/lib/sandbox/sandboxed-command";

const SWEEP_EVERY_MS = 30_000;

/**
 * At server start: settle what a previous process left running, then run agents and fire
 * schedules. Runs held by runner processes end only by their lease (lib/runners/expire-leases.ts).
 * RUNNER_EMBEDDED=false: this process runs no agent itself, only runner processes do.
 */
export async function startEngine(db: Db, kind: "pglite" | "postgresql") {
  await startLeaseSweeper(db);
  startScheduler(db);
  if (process.env.RUNNER_EMBEDDED === "false") {
    console.log("[taskboard] scheduler started; no embedded runner (RUNNER_EMBEDDED=false)");
    return;
  }
  // host:pid:random, so recovery can tell this process's orphans from another instance's.
  void bubblewrapUsableAsync(); // probed now, so the first run does not wait for it
  try {
    sweepSandboxes();
  } catch (error) {
    console.error(`[taskboard] could not sweep old sandboxes: ${(error as Error).message}`);
  }
  const instanceId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
  const runner = new Runner(new DbPort(db, instanceId), { capacity: maxConcurrent(), longPoll: false, heartbeatMs: runnerPollMs() });
  const sweep = () => sweepOrphans(db, kind, instanceId).catch((error: Error) => console.error(`[taskboard] recovery: ${error.message}`));
  await sweep();
  setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
  setInterval(() => runner.wake(), runnerPollMs()).unref();
  setRunnerHandle(runner);
  // The agents live in their own process groups, so they would outlive a stopped server; the
  // rows stay `running` and the next start finishes them as interrupted.
  process.once("exit", () => runner.killAll());
  runner.start();
  console.log(`[taskboard] runner ${instanceId} and scheduler started`);
}
