import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { genericPlan, planNodes } from "@/tests/helpers/query-plans";
import { EVENTS_AFTER, readEvents } from "@/lib/events/read-events";

// An event stream of a quiet workspace, in a database where another workspace wrote many events
// since: its read must walk its own events, not the busy workspace's. The statement runs with one
// generic plan (lib/db/sql.ts), whatever the statistics say of the two workspaces.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
let busy: string;
let quiet: string;
const BUSY_EVENTS = 20_000;
beforeAll(async () => {
  database = await openOwnDatabase();
  const { db } = database;
  busy = (await db.workspace.create({ data: { name: "busy" } })).id;
  quiet = (await db.workspace.create({ data: { name: "quiet" } })).id;
  const insert = (workspaceId: string, count: number) =>
    db.$executeRawUnsafe(
      `INSERT INTO workspace_events (workspace_id, type, actor, data)
       SELECT $1, 'task.updated', '{"type":"system"}'::json, json_build_object('n', g) FROM generate_series(1, $2::int) g`,
      workspaceId,
      count,
    );
  await insert(quiet, 5);
  await insert(busy, BUSY_EVENTS);
  await insert(quiet, 5);
  await db.$executeRawUnsafe("ANALYZE workspace_events");
}, 120_000);
afterAll(async () => {
  await database?.close();
});

describe("reading a quiet workspace's events beside a busy one", () => {
  it("walks only its own events, on (workspace_id, id)", async () => {
    const page = await readEvents(database.sql, quiet, "0", 100);
    expect(page.events).toHaveLength(10);
    const [fifth, sixth] = page.events.slice(4, 6).map((event) => BigInt(event.id));
    expect(sixth - fifth).toBe(BigInt(BUSY_EVENTS) + 1n);

    const plan = await genericPlan(database.db, EVENTS_AFTER.text, [`'${quiet}'`, String(fifth), "100"], { analyze: true });
    const scans = planNodes(plan).filter((node) => node["Relation Name"] === "workspace_events");
    expect(scans.map((node) => node["Index Name"])).toEqual(["workspace_events_workspace_id_id_idx"]);
    // The five events after the cursor, and none of the busy workspace's 20,000 looked at.
    expect(scans[0]["Actual Rows"]).toBe(5);
    expect((scans[0]["Rows Removed by Filter"] ?? 0) + (scans[0]["Rows Removed by Index Recheck"] ?? 0)).toBe(0);
  });
});
