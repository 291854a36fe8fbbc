import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { genericPlan, planNodes as nodes, sqlLiteral, type PlanNode } from "@/tests/helpers/query-plans";
import { boardRead, columnPageRead, taskSearchRead, type PageRequest } from "@/lib/tasks/load-tasks";
import type { WorkspaceRead } from "@/lib/auth/authenticate";
import { seededWorkspace } from "@/tests/helpers/seeded-workspace";
import { ANALYZE_STATEMENTS } from "../../scripts/lib/bench-seed.mjs";

// The board's reads are named statements with a generic plan (lib/db/sql.ts), so the planner
// never sees the page size: it guesses a tenth of the column. In a database where one workspace
// holds most tasks (a team's own install), that guess was large enough for the plan to hash all of
// task_board_extras, or all of the workspace's tasks, for a page of 20: 13 ms for a column page and
// 58 ms for the board at 100,000 tasks, against about 1 ms. This database holds one workspace of
// 2,000 tasks, where the old statements already chose that plan; the board's reads must look up a
// page's tasks and their extras one by one, whatever the statistics say.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
let workspaceId: string;
beforeAll(async () => {
  database = await openOwnDatabase();
  // The bench's own seed, in one workspace.
  ({ workspaceId } = await seededWorkspace(database.db, "plans", 400));
  for (const statement of ANALYZE_STATEMENTS) await database.db.$executeRawUnsafe(statement);
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const PER_TASK_TABLES = ["tasks", "task_board_extras"];

function genericPlanOf(read: WorkspaceRead): Promise<PlanNode> {
  return genericPlan(database.db, read.statement.text, [workspaceId, "no-such-token-hash", ...read.params].map(sqlLiteral));
}

/** Scans of tasks or task_board_extras that read the whole table, or feed a hash or a merge of it. */
function wholeTableReads(plan: PlanNode): string[] {
  const found: string[] = [];
  for (const node of nodes(plan)) {
    if (node["Node Type"] === "Seq Scan" && PER_TASK_TABLES.includes(node["Relation Name"] ?? ""))
      found.push(`Seq Scan on ${node["Relation Name"]}`);
    if (node["Node Type"] === "Hash Join" || node["Node Type"] === "Merge Join")
      for (const inner of nodes(node).filter((n) => n !== node && PER_TASK_TABLES.includes(n["Relation Name"] ?? "")))
        found.push(`${node["Node Type"]} over ${inner["Node Type"]} on ${inner["Relation Name"]}`);
  }
  return found;
}

const page = (extra: Partial<PageRequest> = {}): PageRequest => ({ limit: 20, offset: 0, sortBy: "position", sortDir: "asc", ...extra });

describe("the board's reads in a database of one large workspace", () => {
  const reads: [string, () => WorkspaceRead][] = [
    ["the board", () => boardRead(20)],
    ["the board, filtered", () => boardRead(20, { priority: "p1" })],
    ["a column's first page", () => columnPageRead("todo", page())],
    ["a column's first page by title", () => columnPageRead("todo", page({ sortBy: "title" }))],
    ["a column's page further in", () => columnPageRead("todo", page({ offset: 100 }))],
    ["a compact column page of 500", () => columnPageRead("todo", page({ limit: 500 }), "compact")],
    ["a column's page, filtered", () => columnPageRead("todo", page({ offset: 40, tag: "tag1" }))],
    ["the MCP server's task search", () => taskSearchRead({ columns: ["todo"], projectId: null, search: null, limit: 20, offset: 0 })],
  ];
  it.each(reads)("%s looks up its page's tasks one by one", async (_name, read) => {
    const plan = await genericPlanOf(read());
    expect(nodes(plan).some((node) => node["Relation Name"] === "task_board_extras")).toBe(true);
    expect(wholeTableReads(plan)).toEqual([]);
  });
});
