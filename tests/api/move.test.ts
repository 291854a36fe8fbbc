import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";
import { columnIds, createTask, TASK_FIELDS } from "../helpers/tasks";

let token: string;

beforeAll(async () => {
  token = (await newUser()).token;
});

describe("POST /api/workspaces/{id}/tasks/{task_id}/move", () => {
  it("moves within a column: between two tasks, after one, before one, to the end", async () => {
    const { ws, ids } = await column("todo", 4);
    const [a, b, c, d] = ids;
    const between = await move(ws, d, { column: "todo", after_id: a, before_id: b });
    expect(between.status).toBe(200);
    expect(Object.keys(between.body).sort()).toEqual(TASK_FIELDS);
    expect(await columnIds(token, ws, "todo")).toEqual([a, d, b, c]);

    expect((await move(ws, a, { column: "todo" })).status).toBe(200);
    expect(await columnIds(token, ws, "todo")).toEqual([d, b, c, a]);

    expect((await move(ws, c, { column: "todo", before_id: d })).status).toBe(200);
    expect(await columnIds(token, ws, "todo")).toEqual([c, d, b, a]);

    expect((await move(ws, c, { column: "todo", after_id: b })).status).toBe(200);
    expect(await columnIds(token, ws, "todo")).toEqual([d, b, c, a]);

    // Explicit nulls mean "no anchor".
    expect((await move(ws, d, { column: "todo", after_id: null, before_id: null })).status).toBe(200);
    expect(await columnIds(token, ws, "todo")).toEqual([b, c, a, d]);
  });

  it("moves across columns, setting done_at on entering done and clearing it on leaving", async () => {
    const { ws, ids } = await column("in_review", 2);
    const done = await createTask(token, ws, { status: "done" });
    const moved = await move(ws, ids[0], { column: "done", before_id: done.id });
    expect(moved.status).toBe(200);
    expect(moved.body.status).toBe("done");
    expect(new Date(moved.body.done_at).toISOString()).toBe(moved.body.done_at);
    expect(await columnIds(token, ws, "done")).toEqual([ids[0], done.id]);
    expect(await columnIds(token, ws, "in_review")).toEqual([ids[1]]);

    const within = await move(ws, ids[0], { column: "done" });
    expect(within.body.done_at).toBe(moved.body.done_at);

    const back = await move(ws, ids[0], { column: "backlog" });
    expect(back.body).toMatchObject({ status: "backlog", done_at: null });
    expect(await columnIds(token, ws, "backlog")).toEqual([ids[0]]);
  });

  it("409 when anchors are stale: not adjacent, in another column, or gone", async () => {
    const { ws, ids } = await column("todo", 4);
    const [a, b, c, d] = ids;
    const other = await createTask(token, ws, { status: "backlog" });
    const cases = [
      { column: "todo", after_id: a, before_id: c },
      { column: "todo", after_id: b, before_id: a },
      { column: "todo", after_id: other.id },
      { column: "backlog", after_id: a },
      { column: "todo", before_id: crypto.randomUUID() },
    ];
    for (const body of cases) {
      const response = await move(ws, d, body);
      expect(response.status, JSON.stringify(body)).toBe(409);
      expect(typeof response.body.detail).toBe("string");
    }
    expect(await columnIds(token, ws, "todo")).toEqual([a, b, c, d]);
  });

  it.each([
    [{}, ["body", "column"], "missing"],
    [{ column: "nope" }, ["body", "column"], "enum"],
    [{ column: "todo", after_id: 5 }, ["body", "after_id"], "string_type"],
    [{ column: "todo", before_id: [] }, ["body", "before_id"], "string_type"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const { ws, ids } = await column("todo", 1);
    const response = await move(ws, ids[0], json);
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it("422 when a task is anchored to itself, 404 for an unknown task", async () => {
    const { ws, ids } = await column("todo", 1);
    const self = await move(ws, ids[0], { column: "todo", after_id: ids[0] });
    expect(self.status).toBe(422);
    expect(self.body.detail).toEqual([expect.objectContaining({ loc: ["body", "after_id"], type: "value_error" })]);
    const unknown = await move(ws, crypto.randomUUID(), { column: "todo" });
    expect(unknown).toMatchObject({ status: 404, body: { detail: "Task not found" } });
  });

  it("keeps working when float precision between two tasks runs out (the column is renumbered)", async () => {
    const { ws, ids } = await column("todo", 62);
    const [first, second, ...rest] = ids;
    // Each move lands directly after `first`, halving the gap above the previous one: ~50 halvings
    // exhaust a double, so the column must be renumbered on the way.
    let below = second;
    for (const id of rest.slice(0, 60)) {
      const response = await move(ws, id, { column: "todo", after_id: first, before_id: below });
      expect(response.status).toBe(200);
      below = id;
    }
    const order = await columnIds(token, ws, "todo");
    expect(order).toEqual([first, ...rest.slice(0, 60).reverse(), second, ...rest.slice(60)]);
    const positions = (await call("GET", `/api/workspaces/${ws}/board/column/todo?limit=100`, { token })).body.items.map(
      (t: { position: number }) => t.position,
    );
    expect(new Set(positions).size).toBe(62);
  });

  it("concurrent moves never leave two tasks at one position", async () => {
    const { ws, ids } = await column("todo", 12);
    const [a, b, ...movers] = ids;
    // Ten moves into the same gap at once: each either lands (200) or finds its anchors stale (409).
    const sameGap = await Promise.all(movers.slice(0, 10).map((id) => move(ws, id, { column: "todo", after_id: a, before_id: b })));
    for (const response of sameGap) expect([200, 409]).toContain(response.status);
    expect(sameGap.some((response) => response.status === 200)).toBe(true);
    // Ten moves to the end of another column at once: all land, in distinct places.
    const toEnd = await Promise.all(ids.slice(0, 10).map((id) => move(ws, id, { column: "in_progress" })));
    expect(toEnd.map((response) => response.status)).toEqual(Array(10).fill(200));
    for (const key of ["todo", "in_progress"]) {
      const items = (await call("GET", `/api/workspaces/${ws}/board/column/${key}?limit=100`, { token })).body.items;
      const positions = items.map((t: { position: number }) => t.position);
      expect(new Set(positions).size).toBe(positions.length);
    }
    expect((await columnIds(token, ws, "in_progress")).sort()).toEqual(ids.slice(0, 10).sort());
  });
});

async function column(status: string, count: number) {
  const ws = (await newWorkspace(token)).id;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createTask(token, ws, { status, title: `t${i}` })).id);
  return { ws, ids };
}

function move(ws: string, taskId: string, json: unknown) {
  return call("POST", `/api/workspaces/${ws}/tasks/${taskId}/move`, { token, json });
}
