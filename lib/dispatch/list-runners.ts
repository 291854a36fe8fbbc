import type { Db } from "@/lib/db/client";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import type { RunnerRecord } from "@/lib/dispatch/schemas";
import { serializeRunner } from "@/lib/dispatch/serialize";

export async function listRunners(db: Db): Promise<RunnerRecord[]> {
  const rows = await db.runner.findMany({ where: { revokedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1000 });
  const counts = await db.execution.groupBy({
    by: ["runnerId"],
    where: { runnerId: { in: rows.map((row) => row.id) }, status: { in: [...STARTED_RUN_STATUSES] } },
    _count: { _all: true },
  });
  const running = new Map(counts.map((count) => [count.runnerId, count._count._all]));
  return rows.map((row) => serializeRunner(row, running.get(row.id) ?? 0));
}
