import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { genericPlan, planNodes, sqlLiteral } from "@/tests/helpers/query-plans";
import { boardRead, columnPageRead } from "@/lib/tasks/load-tasks";
import { hashSecret } from "@/lib/auth/tokens";
import { waitingForRunners } from "@/lib/runs/waiting-for-runner";
import type { WorkspaceRead } from "@/lib/auth/authenticate";
import { seededWorkspace } from "@/tests/helpers/seeded-workspace";
import { ANALYZE_STATEMENTS } from "../../scripts/lib/bench-seed.mjs";

// A card whose run is queued says why it waits (taskboard_waiting_for_runner). A board of agents'
// work often shows many of them: every slot busy, or no runner online. The function was called
// once per such card and, as a SQL function, planned again in every read; and the probe that finds
// the queued run was planned on executions(status, created_at), walking every queued run of every
// workspace newer than the card's. Cards of profiles without labels now share one call per read,
// the function keeps its plan (PL/pgSQL), and the probe is on the run's id (executions.task_run_id).

const SECRET = "waiting-cards-secret";
const PLAIN = 6; // queued runs of a profile without labels
const LABELLED = 2; // queued runs of a profile that asks for a `gpu` runner

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
let workspaceId: string;
let executionIds: string[];
beforeAll(async () => {
  database = await openOwnDatabase();
  const { db } = database;
  const seeded = await seededWorkspace(db, "waiting", 40);
  workspaceId = seeded.workspaceId;
  await db.authToken.create({ data: { kind: "api_key", userId: seeded.userId, tokenHash: hashSecret(SECRET) } });
  // 3,000 finished runs of the Done column, with their executions.
  await db.$executeRawUnsafe(`
    WITH r AS (
      INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger)
      SELECT gen_random_uuid()::text, t.id, t.workspace_id, 10 + g, 'succeeded', 'manual'
      FROM tasks t CROSS JOIN generate_series(1, 75) g WHERE t.workspace_id = '${workspaceId}' AND t.status = 'done'
      RETURNING id, task_id, workspace_id)
    INSERT INTO executions (id, workspace_id, task_id, task_run_id, session_name, status)
    SELECT gen_random_uuid()::text, r.workspace_id, r.task_id, r.id, 'tb', 'succeeded' FROM r`);
  // One online runner with no free slot and no labels: plain runs wait for a slot, `gpu` ones for a runner.
  await db.runner.create({
    data: { name: "full", capacity: 0, tokenHash: hashSecret("runner"), lastSeenAt: new Date(), sandbox: "bubblewrap" },
  });
  const tasks = await db.task.findMany({ where: { workspaceId, status: "todo" }, orderBy: { position: "asc" }, take: PLAIN + LABELLED });
  executionIds = [];
  for (const [i, task] of tasks.entries()) {
    const labels = i < PLAIN ? [] : ["gpu"];
    const run = await db.taskRun.create({ data: { taskId: task.id, workspaceId, attemptNumber: 9, status: "queued", trigger: "manual" } });
    const execution = await db.execution.create({
      data: {
        workspaceId,
        taskId: task.id,
        taskRunId: run.id,
        sessionName: `tb-${i}`,
        status: "queued",
        agentProfile: { name: "agent", labels },
      },
    });
    executionIds.push(execution.id);
  }
  // Statistics that say few runs are queued, as they do until a burst of queued runs meets the next
  // analyze: then the planner liked walking executions(status, created_at) from the newest queued run.
  for (const statement of ANALYZE_STATEMENTS) await db.$executeRawUnsafe(statement);
}, 120_000);
afterAll(async () => {
  await database?.close();
});

interface Card {
  id: string;
  latest_run_status: string | null;
  latest_run_waiting_for_runner: { reason: string; message: string } | null;
}

/** Runs a read as the server does (a generic plan), counting the calls of the waiting function. */
async function readCountingCalls(read: WorkspaceRead): Promise<{ body: string; calls: number }> {
  const values = [workspaceId, hashSecret(SECRET), ...read.params].map(sqlLiteral).join(", ");
  return database.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
    await tx.$executeRawUnsafe("SET LOCAL track_functions = 'all'");
    await tx.$executeRawUnsafe(`PREPARE waiting_read AS ${read.statement.text}`);
    // The counts are the session's since its last report, not only this transaction's: a difference.
    const before = await callsSoFar(tx);
    const [row] = await tx.$queryRawUnsafe<{ body: string }[]>(`EXECUTE waiting_read(${values})`);
    const calls = (await callsSoFar(tx)) - before;
    await tx.$executeRawUnsafe("DEALLOCATE waiting_read");
    return { body: row.body, calls };
  });
}

async function callsSoFar(tx: Pick<typeof database.db, "$queryRawUnsafe">): Promise<number> {
  const [stat] = await tx.$queryRawUnsafe<{ calls: bigint }[]>(
    "SELECT calls FROM pg_stat_xact_user_functions WHERE funcname = 'taskboard_waiting_for_runner'",
  );
  return Number(stat?.calls ?? 0);
}

const firstPage = { limit: 20, offset: 0, sortBy: "position", sortDir: "asc" } as const;

describe("cards of queued runs", () => {
  it.each([
    ["the board", () => boardRead(20), (body: string) => (JSON.parse(body) as { columns: { items: Card[] }[] }).columns[1].items],
    ["a column's first page", () => columnPageRead("todo", firstPage), (body: string) => (JSON.parse(body) as { items: Card[] }).items],
  ])("%s says why each waits, asking once for the profiles without labels", async (_name, read, cardsOf) => {
    const { body, calls } = await readCountingCalls(read());
    const queued = cardsOf(body).filter((card) => card.latest_run_status === "queued");
    expect(queued).toHaveLength(PLAIN + LABELLED);
    expect(queued.slice(0, PLAIN).map((card) => card.latest_run_waiting_for_runner?.reason)).toEqual(Array(PLAIN).fill("all_busy"));
    expect(queued.slice(PLAIN).map((card) => card.latest_run_waiting_for_runner?.reason)).toEqual(
      Array(LABELLED).fill("no_matching_labels"),
    );
    // The same answers as the run records' (one call per run there).
    const records = await waitingForRunners(database.db, executionIds);
    expect(queued.map((card) => card.latest_run_waiting_for_runner)).toEqual(executionIds.map((id) => records.get(id)));
    expect(calls).toBe(1 + LABELLED);
  });

  it("finds a card's run by the run's id, whatever the statistics say", async () => {
    for (const read of [boardRead(20), columnPageRead("todo", firstPage)]) {
      const values = [workspaceId, "no-such-token-hash", ...read.params].map(sqlLiteral);
      const scans = planNodes(await genericPlan(database.db, read.statement.text, values)).filter(
        (node) => node["Relation Name"] === "executions",
      );
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) expect(scan["Index Cond"] ?? "").toContain("task_run_id");
    }
  });
});
