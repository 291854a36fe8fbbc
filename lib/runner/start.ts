import type { Db } from "@/lib/db/client";
import { Runner } from "@/lib/runner/runner";
import { sweepOrphans } from "@/lib/runner/recovery";
import { startScheduler } from "@/lib/scheduler/scheduler";

/** At server start: settle what a previous process left running, then run agents and fire schedules. */
export async function startEngine(db: Db, kind: "pglite" | "postgresql") {
  const runner = new Runner(db, kind);
  await sweepOrphans(db, kind, runner.instanceId);
  runner.start();
  startScheduler(db);
  console.log(`[taskboard] runner ${runner.instanceId} and scheduler started`);
}
