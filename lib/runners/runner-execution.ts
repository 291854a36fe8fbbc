import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";

/** An execution this runner claimed; 404 for any other (another runner's ids reveal nothing). */
export async function runnerExecution(db: Db, runner: Runner, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, runnerId: runner.id } });
  if (!execution) throw notFound("Execution");
  return execution;
}
