import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, userWithWorkspace } from "../helpers/api";
import { createTask, TASK_FIELDS } from "../helpers/tasks";

const made = userWithWorkspace();
let token: string;
let ws: string;
beforeAll(() => ({ token, ws } = made));
const tasks = (path = "") => `/api/workspaces/${ws}/tasks${path}`;

describe("POST /api/workspaces/{id}/tasks", () => {
  it("creates a task with every default and every TaskResponse field", async () => {
    const response = await call("POST", tasks(), { token, json: { title: "Write the docs" } });
    expect(response.status).toBe(201);
    const task = response.body;
    expect(Object.keys(task).sort()).toEqual(TASK_FIELDS);
    expect(task).toMatchObject({
      workspace_id: ws,
      title: "Write the docs",
      description: "",
      status: "backlog",
      priority: "p2",
      tags: [],
      pr_url: null,
      has_merge_conflict: false,
      project_id: null,
      phase: null,
      blocked: false,
      project_name: null,
      phase_name: null,
      questions: [],
      task_runs: [],
      latest_run_status: null,
      latest_run_error: null,
      latest_run_trigger: null,
      done_at: null,
    });
    expect(typeof task.position).toBe("number");
    expect(new Date(task.created_at).toISOString()).toBe(task.created_at);
    expect(new Date(task.updated_at).toISOString()).toBe(task.updated_at);
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("stores every given field, and a task created in done gets done_at", async () => {
    const task = await createTask(token, ws, {
      title: "Ship it",
      description: "x".repeat(100_000),
      status: "done",
      priority: "p0",
      tags: Array.from({ length: 20 }, (_, i) => `tag${i}`.padEnd(50, "z")),
      pr_url: "https://example.com/pr/1",
      phase: 3,
    });
    expect(task).toMatchObject({ status: "done", priority: "p0", pr_url: "https://example.com/pr/1", phase: 3, phase_name: null });
    expect(task.description).toHaveLength(100_000);
    expect(task.tags).toHaveLength(20);
    expect(new Date(task.done_at).toISOString()).toBe(task.done_at);
  });

  it("puts new tasks at the end of their column", async () => {
    const own = (await newWorkspace(token)).id;
    const a = await createTask(token, own, { status: "todo" });
    const b = await createTask(token, own, { status: "todo" });
    const c = await createTask(token, own, { status: "todo" });
    expect(a.position).toBeLessThan(b.position);
    expect(b.position).toBeLessThan(c.position);
  });

  it.each([
    [{}, ["body", "title"], "missing"],
    [{ title: "" }, ["body", "title"], "string_too_short"],
    [{ title: "   " }, ["body", "title"], "string_too_short"],
    [{ title: 5 }, ["body", "title"], "string_type"],
    [{ title: "x".repeat(501) }, ["body", "title"], "string_too_long"],
    [{ title: "t", description: "x".repeat(100_001) }, ["body", "description"], "string_too_long"],
    [{ title: "t", status: "nope" }, ["body", "status"], "enum"],
    [{ title: "t", priority: "p5" }, ["body", "priority"], "enum"],
    [{ title: "t", tags: "a" }, ["body", "tags"], "list_type"],
    [{ title: "t", tags: Array(21).fill("a") }, ["body", "tags"], "too_long"],
    [{ title: "t", tags: ["x".repeat(51)] }, ["body", "tags", 0], "string_too_long"],
    [{ title: "t", phase: 0 }, ["body", "phase"], "greater_than_equal"],
    [{ title: "t", phase: 1.5 }, ["body", "phase"], "int_from_float"],
    [{ title: "t", phase: "one" }, ["body", "phase"], "int_type"],
    [{ title: "t", pr_url: 5 }, ["body", "pr_url"], "string_type"],
    [{ title: "t", project_id: 5 }, ["body", "project_id"], "string_type"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const response = await call("POST", tasks(), { token, json });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it("422 json_invalid for a malformed body", async () => {
    const response = await call("POST", tasks(), { token, body: "{oops", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toMatchObject({ type: "json_invalid", loc: ["body", 1] });
  });

  it("404 Project not found for a project that is not in the workspace", async () => {
    const response = await call("POST", tasks(), { token, json: { title: "t", project_id: crypto.randomUUID() } });
    expect(response).toMatchObject({ status: 404, body: { detail: "Project not found" } });
  });
});

describe("GET /api/workspaces/{id}/tasks/{task_id}", () => {
  it("returns the task", async () => {
    const created = await createTask(token, ws, { title: "read me" });
    const response = await call("GET", tasks(`/${created.id}`), { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
  });

  it("404 Task not found for an unknown id", async () => {
    const response = await call("GET", tasks(`/${crypto.randomUUID()}`), { token });
    expect(response).toMatchObject({ status: 404, body: { detail: "Task not found" } });
  });
});

describe("PATCH /api/workspaces/{id}/tasks/{task_id}", () => {
  it("changes the given fields only", async () => {
    const created = await createTask(token, ws, { title: "before", tags: ["a"] });
    const response = await call("PATCH", tasks(`/${created.id}`), {
      token,
      json: { title: "after", description: "d", priority: "p1", pr_url: "https://x/pr/2", has_merge_conflict: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      title: "after",
      description: "d",
      priority: "p1",
      tags: ["a"],
      pr_url: "https://x/pr/2",
      has_merge_conflict: true,
      status: "backlog",
      position: created.position,
    });
    expect(Object.keys(response.body).sort()).toEqual(TASK_FIELDS);
    const cleared = await call("PATCH", tasks(`/${created.id}`), { token, json: { pr_url: null, tags: [] } });
    expect(cleared.body).toMatchObject({ pr_url: null, tags: [], title: "after" });
  });

  it("a new status puts the task at the end of that column and sets, then clears, done_at", async () => {
    const own = (await newWorkspace(token)).id;
    const existing = await createTask(token, own, { status: "done" });
    const task = await createTask(token, own, { status: "todo" });
    const done = await call("PATCH", `/api/workspaces/${own}/tasks/${task.id}`, { token, json: { status: "done" } });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("done");
    expect(done.body.position).toBeGreaterThan(existing.position);
    expect(new Date(done.body.done_at).toISOString()).toBe(done.body.done_at);

    const again = await call("PATCH", `/api/workspaces/${own}/tasks/${task.id}`, { token, json: { status: "done", title: "x" } });
    expect(again.body.done_at).toBe(done.body.done_at);

    const back = await call("PATCH", `/api/workspaces/${own}/tasks/${task.id}`, { token, json: { status: "in_review" } });
    expect(back.body).toMatchObject({ status: "in_review", done_at: null });
  });

  it("sets an explicit position, and 409 when another task holds it", async () => {
    const own = (await newWorkspace(token)).id;
    const a = await createTask(token, own);
    const b = await createTask(token, own);
    const moved = await call("PATCH", `/api/workspaces/${own}/tasks/${b.id}`, { token, json: { position: 0.25 } });
    expect(moved.body.position).toBe(0.25);
    const taken = await call("PATCH", `/api/workspaces/${own}/tasks/${b.id}`, { token, json: { position: a.position } });
    expect(taken.status).toBe(409);
    expect(typeof taken.body.detail).toBe("string");
  });

  it("blocked=true marks the task blocked", async () => {
    const created = await createTask(token, ws);
    const response = await call("PATCH", tasks(`/${created.id}`), { token, json: { blocked: true } });
    expect(response.body.blocked).toBe(true);
    const unblocked = await call("PATCH", tasks(`/${created.id}`), { token, json: { blocked: false } });
    expect(unblocked.body.blocked).toBe(false);
  });

  it.each([
    [{ title: "" }, ["body", "title"], "string_too_short"],
    [{ status: "nope" }, ["body", "status"], "enum"],
    [{ position: "high" }, ["body", "position"], "float_type"],
    [{ blocked: "maybe" }, ["body", "blocked"], "bool_type"],
    [{ has_merge_conflict: 1 }, ["body", "has_merge_conflict"], "bool_type"],
    [{ phase: 0 }, ["body", "phase"], "greater_than_equal"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const created = await createTask(token, ws);
    const response = await call("PATCH", tasks(`/${created.id}`), { token, json });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it("404 for an unknown task and for an unknown project", async () => {
    const unknown = await call("PATCH", tasks(`/${crypto.randomUUID()}`), { token, json: { title: "x" } });
    expect(unknown).toMatchObject({ status: 404, body: { detail: "Task not found" } });
    const created = await createTask(token, ws);
    const project = await call("PATCH", tasks(`/${created.id}`), { token, json: { project_id: crypto.randomUUID() } });
    expect(project).toMatchObject({ status: 404, body: { detail: "Project not found" } });
  });
});

describe("DELETE /api/workspaces/{id}/tasks/{task_id}", () => {
  it("204, then the task is gone", async () => {
    const created = await createTask(token, ws);
    const response = await call("DELETE", tasks(`/${created.id}`), { token });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect((await call("GET", tasks(`/${created.id}`), { token })).status).toBe(404);
    const again = await call("DELETE", tasks(`/${created.id}`), { token });
    expect(again).toMatchObject({ status: 404, body: { detail: "Task not found" } });
  });
});

describe("workspace isolation", () => {
  it("a non-member gets 404 Workspace not found on every task and board route", async () => {
    const task = await createTask(token, ws);
    const stranger = (await newUser()).token;
    const routes: [string, string, unknown?][] = [
      ["POST", tasks(), { title: "x" }],
      ["GET", tasks(`/${task.id}`)],
      ["PATCH", tasks(`/${task.id}`), { title: "x" }],
      ["DELETE", tasks(`/${task.id}`)],
      ["POST", tasks(`/${task.id}/move`), { column: "todo" }],
      ["GET", `/api/workspaces/${ws}/board`],
      ["GET", `/api/workspaces/${ws}/board/column/todo`],
    ];
    for (const [method, path, json] of routes) {
      const response = await call(method, path, { token: stranger, json });
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: { detail: "Workspace not found" } });
    }
    // And the task is untouched.
    expect((await call("GET", tasks(`/${task.id}`), { token })).body).toEqual(task);
  });

  it("a task of another workspace is not found through this one", async () => {
    const task = await createTask(token, ws);
    const other = (await newWorkspace(token)).id;
    for (const [method, suffix, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { title: "x" }],
      ["DELETE", "", undefined],
      ["POST", "/move", { column: "todo" }],
    ] as const) {
      const response = await call(method, `/api/workspaces/${other}/tasks/${task.id}${suffix}`, { token, json });
      expect(response, `${method} ${suffix}`).toMatchObject({ status: 404, body: { detail: "Task not found" } });
    }
  });

  it("401 without a token", async () => {
    expect((await call("POST", tasks(), { json: { title: "x" } })).status).toBe(401);
  });
});

describe("searching tasks by title", () => {
  it("finds tasks of the workspace in board order, paged, and validates the query", async () => {
    const own = (await newWorkspace(token)).id;
    const first = await createTask(token, own, { title: "Paint the FENCE", status: "todo" });
    const second = await createTask(token, own, { title: "fence posts", status: "backlog" });
    await createTask(token, own, { title: "unrelated", status: "backlog" });
    const found = await call("GET", `/api/workspaces/${own}/tasks?search=fence`, { token });
    expect(found.status).toBe(200);
    expect(found.body.items.map((t: { id: string }) => t.id)).toEqual([second.id, first.id]);
    expect(found.body.has_more).toBe(false);
    const paged = await call("GET", `/api/workspaces/${own}/tasks?search=fence&limit=1`, { token });
    expect(paged.body).toMatchObject({ has_more: true, items: [{ id: second.id }] });
    expect((await call("GET", `/api/workspaces/${own}/tasks?limit=0`, { token })).status).toBe(422);
    expect((await call("GET", `/api/workspaces/${own}/tasks?column=nowhere`, { token })).status).toBe(422);
    expect((await call("GET", `/api/workspaces/${own}/tasks?search=fence`, { token: (await newUser()).token })).status).toBe(404);
  });
});
