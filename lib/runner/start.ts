import type { Db } from "@/lib/db/client";
import { Runner } from "@/lib/runner/runner";
import { sweepOrphans } from "@/lib/runner/recovery";
import { startScheduler } from "@/lib/scheduler/scheduler";
import { bubblewrapUsableAsync } from "@/lib/sandbox/mode";
import { sweepSandboxes } from "@/lib/sandbox/sandboxed-command";

/** At server start: settle what a previous process left running, then run agents and fire schedules. */
export async function startEngine(db: Db, kind: "pglite" | "postgresql") {
  const runner = new Runner(db, kind);
  await sweepOrphans(db, kind, runner.instanceId);
  void bubblewrapUsableAsync(); // probed now, so the first run does not wait for it
  try {
    sweepSandboxes();
  } catch (error) {
    console.error(`[taskboard] could not sweep old sandboxes: ${(error as Error).message}`);
  }
  runner.start();
  startScheduler(db);
  console.log(`[taskboard] runner ${runner.instanceId} and scheduler started`);
}
