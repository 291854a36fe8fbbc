import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";

export async function getExecution(db: Db, workspaceId: string, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, workspaceId } });
  if (!execution) throw notFound("Execution");
  return execution;
}
