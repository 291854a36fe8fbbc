import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { planNodes as nodes, type PlanNode } from "@/tests/helpers/query-plans";
import { PREVIOUS_EVENT, previousEventData } from "@/lib/reactions/previous-event";

// A reaction's look back at a task's previous event must not walk past the task's runs' live log
// (one execution.log event per run and log batch): its cost stays that of the task's other events.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("the event before, behind a long live log", () => {
  it("is found, and reading it touches none of the live log's rows", async () => {
    const { db } = database;
    const workspace = await db.workspace.create({ data: { name: "previous" } });
    const task = await db.task.create({ data: { workspaceId: workspace.id, title: "t", position: 1 } });
    const insert = (type: string, data: unknown, count: number) =>
      db.$executeRawUnsafe(
        `INSERT INTO workspace_events (workspace_id, task_id, type, actor, data)
         SELECT $1, $2, $3, '{"type":"system"}'::json, $4::json FROM generate_series(1, $5::int)`,
        workspace.id,
        task.id,
        type,
        JSON.stringify(data),
        count,
      );
    await insert("execution.updated", { id: "ex-1", status: "running" }, 1);
    await insert("execution.log", { id: "ex-1", line_count: 40 }, 3000);
    await insert("execution.updated", { id: "ex-1", status: "succeeded" }, 1);
    const [{ last }] = await db.$queryRawUnsafe<{ last: string }[]>(`SELECT max(id)::text AS last FROM workspace_events`);
    await db.$executeRawUnsafe(`ANALYZE workspace_events`);

    expect(await previousEventData(db, task.id, last, ["execution.updated"], "ex-1")).toEqual({ id: "ex-1", status: "running" });

    const [row] = await db.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${PREVIOUS_EVENT}`,
      task.id,
      last,
      ["execution.updated"],
      "ex-1",
    );
    const plan = (typeof row["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row["QUERY PLAN"]) as { Plan: PlanNode }[];
    const scans = nodes(plan[0].Plan).filter((node) => node["Node Type"].includes("Scan"));
    expect(scans.map((node) => node["Index Name"])).toEqual(["workspace_events_task_id_id_idx"]);
    // It reads the task's two other events at most, not the 3,000 batches between them.
    expect(scans[0]["Actual Rows"]! + (scans[0]["Rows Removed by Filter"] ?? 0)).toBeLessThanOrEqual(2);
  });
});
