import type { Db, Tx } from "@/lib/db/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { runnersRequireSandbox } from "@/lib/sandbox/mode";
import { RUN_STATUS } from "@/lib/runs/statuses";
import type { WaitingForRunner } from "@/lib/tasks/schemas";

// Why queued runs wait (`waiting_for_runner`, docs/runners.md), for a page of runs in one query:
// the SQL function taskboard_waiting_for_runner is the one definition, shared with the board's
// task JSON (lib/db/task-json-sql.ts). Only queued executions are looked at; the rest are null.

/** By execution id: the reason each queued one of these waits; absent when it does not wait. */
export async function waitingForRunners(db: Db | Tx, executionIds: string[]): Promise<Map<string, NonNullable<WaitingForRunner>>> {
  if (executionIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; waiting: WaitingForRunner }[]>`
    SELECT id, taskboard_waiting_for_runner(workspace_id, agent_profile, ${runnerLeaseSeconds()}::int, ${runnersRequireSandbox()}::boolean) AS waiting
    FROM executions WHERE id = ANY(${executionIds}::text[]) AND status = ${RUN_STATUS.queued}`;
  return new Map(rows.flatMap((row) => (row.waiting ? [[row.id, row.waiting] as const] : [])));
}

/** One execution's: null unless it is queued and no online runner can take it. */
export async function waitingForRunner(db: Db | Tx, execution: { id: string; status: string }): Promise<WaitingForRunner> {
  if (execution.status !== RUN_STATUS.queued) return null;
  return (await waitingForRunners(db, [execution.id])).get(execution.id) ?? null;
}
