import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";
import { taskCard } from "@/lib/tasks/card-schemas";
import { columnIds, createTask, onPostgres, sql, TASK_FIELDS } from "../helpers/tasks";

let token: string;
let ws: string;
const column = (key: string, query = "") => `/api/workspaces/${ws}/board/column/${key}${query}`;

beforeAll(async () => {
  token = (await newUser()).token;
  ws = (await newWorkspace(token)).id;
});

describe("GET /api/workspaces/{id}/board/column/{column}", () => {
  it("returns a page with total and has_more; defaults limit 20, offset 0, position order", async () => {
    const created = [];
    for (let i = 0; i < 22; i++) created.push(await createTask(token, ws, { status: "in_progress", title: `t${i}` }));
    const response = await call("GET", column("in_progress"), { token });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["has_more", "items", "total"]);
    expect(response.body.total).toBe(22);
    expect(response.body.has_more).toBe(true);
    expect(response.body.items.map((t: { id: string }) => t.id)).toEqual(created.slice(0, 20).map((t) => t.id));
    for (const item of response.body.items) {
      expect(Object.keys(item).sort()).toEqual(TASK_FIELDS);
      expect(item).toMatchObject({
        status: "in_progress",
        questions: [],
        task_runs: [],
        project_name: null,
        phase_name: null,
        blocked: false,
      });
    }
    const last = await call("GET", column("in_progress", "?offset=20"), { token });
    expect(last.body).toMatchObject({ total: 22, has_more: false });
    expect(last.body.items.map((t: { id: string }) => t.id)).toEqual(created.slice(20).map((t) => t.id));
    const beyond = await call("GET", column("in_progress", "?offset=500"), { token });
    expect(beyond.body).toEqual({ items: [], total: 22, has_more: false });
    const empty = await call("GET", column("in_review"), { token });
    expect(empty.body).toEqual({ items: [], total: 0, has_more: false });
  });

  it.each([
    ["nope", "", ["path", "column"], "enum"],
    ["todo", "?limit=0", ["query", "limit"], "greater_than_equal"],
    ["todo", "?limit=101", ["query", "limit"], "less_than_equal"],
    ["todo", "?limit=abc", ["query", "limit"], "int_parsing"],
    ["todo", "?offset=-1", ["query", "offset"], "greater_than_equal"],
    ["todo", "?offset=1.5", ["query", "offset"], "int_parsing"],
    ["todo", "?sort_by=x", ["query", "sort_by"], "enum"],
    ["todo", "?sort_dir=up", ["query", "sort_dir"], "enum"],
  ])("422 for %s%s at %j (%s)", async (key, query, loc, type) => {
    const response = await call("GET", column(key, query), { token });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it("pages never overlap or skip with ties, for every sort and direction", async () => {
    const own = (await newWorkspace(token)).id;
    // Equal titles and priorities, so most of the order comes from the id tie-break.
    for (let i = 0; i < 23; i++) {
      await createTask(token, own, { status: "todo", title: i % 3 === 0 ? "alpha" : "beta", priority: i % 2 ? "p1" : "p3" });
    }
    for (const sortBy of ["position", "title", "created_at", "priority"]) {
      for (const dir of ["asc", "desc"]) {
        const all = await call("GET", `/api/workspaces/${own}/board/column/todo?limit=100&sort_by=${sortBy}&sort_dir=${dir}`, { token });
        const full = all.body.items;
        expect(full).toHaveLength(23);
        const key = (t: Record<string, unknown>) => String(sortBy === "position" ? String(t.position).padStart(20, "0") : t[sortBy]);
        for (let i = 1; i < full.length; i++) {
          const [a, b] = dir === "asc" ? [full[i - 1], full[i]] : [full[i], full[i - 1]];
          const ordered = key(a) < key(b) || (key(a) === key(b) && a.id < b.id);
          expect(ordered, `${sortBy} ${dir} at ${i}`).toBe(true);
        }
        const paged: string[] = [];
        for (let offset = 0; offset < 23; offset += 5) {
          const page = await call(
            "GET",
            `/api/workspaces/${own}/board/column/todo?limit=5&offset=${offset}&sort_by=${sortBy}&sort_dir=${dir}`,
            { token },
          );
          expect(page.body.total).toBe(23);
          expect(page.body.has_more).toBe(offset + page.body.items.length < 23);
          paged.push(...page.body.items.map((t: { id: string }) => t.id));
        }
        expect(paged, `${sortBy} ${dir}`).toEqual(full.map((t: { id: string }) => t.id));
      }
    }
  });

  it("sends the same number of SQL statements for limit=1 and limit=100, for 1 task and for 60", async () => {
    const small = (await newWorkspace(token)).id;
    await createTask(token, small, { status: "todo" });
    const large = (await newWorkspace(token)).id;
    for (let i = 0; i < 60; i++) await createTask(token, large, { status: "todo", title: `t${i}` });
    const counts = new Set<string>();
    for (const workspace of [small, large]) {
      for (const limit of [1, 100]) {
        const response = await call("GET", `/api/workspaces/${workspace}/board/column/todo?limit=${limit}`, { token });
        expect(response.status).toBe(200);
        counts.add(response.headers.get("x-sql-statements")!);
      }
      const board = await call("GET", `/api/workspaces/${workspace}/board?limit=100`, { token });
      counts.add(board.headers.get("x-sql-statements")!);
    }
    expect(counts.size).toBe(1);
    expect(Number([...counts][0])).toBeGreaterThan(0);
  });
});

describe("column totals", () => {
  it("stay exact through creates (also concurrent), moves, status changes and deletes", async () => {
    const own = (await newWorkspace(token)).id;
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => createTask(token, own, { status: "todo", title: `c${i}` })));
    expect(new Set(created.map((t) => t.position)).size).toBe(10);
    const totals = async () =>
      Object.fromEntries(
        (await call("GET", `/api/workspaces/${own}/board?limit=100`, { token })).body.columns.map(
          (c: { key: string; total: number; items: unknown[] }) => {
            expect(c.total).toBe(c.items.length);
            return [c.key, c.total];
          },
        ),
      );
    expect(await totals()).toEqual({ backlog: 0, todo: 10, in_progress: 0, in_review: 0, done: 0 });
    await call("POST", `/api/workspaces/${own}/tasks/${created[0].id}/move`, { token, json: { column: "done" } });
    await call("POST", `/api/workspaces/${own}/tasks/${created[1].id}/move`, { token, json: { column: "todo" } });
    await call("PATCH", `/api/workspaces/${own}/tasks/${created[2].id}`, { token, json: { status: "in_review" } });
    await call("PATCH", `/api/workspaces/${own}/tasks/${created[3].id}`, { token, json: { title: "renamed" } });
    await call("DELETE", `/api/workspaces/${own}/tasks/${created[4].id}`, { token });
    expect(await totals()).toEqual({ backlog: 0, todo: 7, in_progress: 0, in_review: 1, done: 1 });
  });
});

describe("GET /api/workspaces/{id}/board", () => {
  it("returns the first page of every column in order, with totals", async () => {
    const own = (await newWorkspace(token)).id;
    const todo = [];
    for (let i = 0; i < 4; i++) todo.push(await createTask(token, own, { status: "todo" }));
    const done = await createTask(token, own, { status: "done" });
    const response = await call("GET", `/api/workspaces/${own}/board?limit=3`, { token });
    expect(response.status).toBe(200);
    expect(response.body.columns.map((c: { key: string; title: string }) => [c.key, c.title])).toEqual([
      ["backlog", "Backlog"],
      ["todo", "To do"],
      ["in_progress", "In progress"],
      ["in_review", "In review"],
      ["done", "Done"],
    ]);
    const [backlog, todoColumn, , , doneColumn] = response.body.columns;
    expect(backlog).toEqual({ key: "backlog", title: "Backlog", total: 0, has_more: false, items: [] });
    expect(todoColumn).toMatchObject({ total: 4, has_more: true });
    expect(todoColumn.items.map((t: { id: string }) => t.id)).toEqual(todo.slice(0, 3).map((t) => t.id));
    // The board sends cards: the task's fields a card shows, the same values as the task's.
    expect(doneColumn).toMatchObject({ total: 1, has_more: false, items: [taskCard.parse(done)] });
    const defaults = await call("GET", `/api/workspaces/${own}/board`, { token });
    expect(defaults.body.columns[1].items).toHaveLength(4);
  });

  it.each([
    ["?limit=0", "greater_than_equal"],
    ["?limit=501", "less_than_equal"],
    ["?limit=x", "int_parsing"],
  ])("422 for %s", async (query, type) => {
    const response = await call("GET", `/api/workspaces/${ws}/board${query}`, { token });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc: ["query", "limit"], type })]);
  });

  it("404 for an unknown workspace", async () => {
    const response = await call("GET", `/api/workspaces/${crypto.randomUUID()}/board`, { token });
    expect(response).toMatchObject({ status: 404, body: { detail: "Workspace not found" } });
  });
});

// The board's routes check the credential and read the page in one statement; they must still
// answer like every other route: 401 before 404 before 422, and nothing for a dead credential.
describe("the board routes' answers", () => {
  it("401 without a valid credential, 404 for a non-member, 422 only for a member", async () => {
    const own = (await newWorkspace(token)).id;
    await createTask(token, own, { status: "todo" });
    const outsider = await newUser();
    const bad = [`/api/workspaces/${own}/board/column/todo?limit=0`, `/api/workspaces/${own}/board?limit=0`];
    for (const url of bad) {
      expect((await call("GET", url)).status).toBe(401);
      expect((await call("GET", url, { token: "tba_not-a-token" })).status).toBe(401);
      expect(await call("GET", url, { token: outsider.token })).toMatchObject({ status: 404, body: { detail: "Workspace not found" } });
      const invalid = await call("GET", url, { token });
      expect(invalid.status).toBe(422);
      expect(invalid.body.detail).toEqual([expect.objectContaining({ loc: ["query", "limit"], type: "greater_than_equal" })]);
    }
    expect((await call("GET", `/api/workspaces/${own}/board/nope`, { token: outsider.token })).status).toBe(404);
  });

  it("a logged-out token and a deleted API key read nothing", async () => {
    const member = await newUser();
    const own = (await newWorkspace(member.token)).id;
    await createTask(member.token, own, { status: "todo", title: "secret" });
    const key = await call("POST", "/api/auth/api-keys", { token: member.token, json: { name: "board reader" } });
    expect(key.status).toBe(201);
    const urls = [`/api/workspaces/${own}/board/column/todo`, `/api/workspaces/${own}/board`];
    for (const url of urls) expect((await call("GET", url, { token: key.body.key })).status).toBe(200);
    expect((await call("DELETE", `/api/auth/api-keys/${key.body.id}`, { token: member.token })).status).toBe(204);
    expect((await call("POST", "/api/auth/logout", { token: member.token })).status).toBe(204);
    for (const url of urls) {
      for (const credential of [key.body.key, member.token]) {
        const response = await call("GET", url, { token: credential });
        expect(response.status).toBe(401);
        expect(JSON.stringify(response.body)).not.toContain("secret");
      }
    }
  });
});

if (onPostgres()) {
  describe("board-level enrichment (rows inserted in SQL)", () => {
    it("PostgreSQL's JSON of a task equals the other routes' records: runs, questions, ISO timestamps", async () => {
      const own = (await newWorkspace(token)).id;
      const task = await createTask(token, own, { status: "in_review", title: "checked" });
      await sql(
        `INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger, exit_code, error_message,
                                started_at, finished_at, duration_seconds, session_id, created_at)
         VALUES ($1, $2, $3, 1, 'failed', 'fix_conflicts', 3, 'exit status 3', '2026-01-02T03:04:05.6Z', '2026-01-02T03:05:00Z', 54.4, 's-1', now())`,
        [crypto.randomUUID(), task.id, own],
      );
      const question = await call("POST", `/api/workspaces/${own}/questions`, {
        token,
        json: { task_id: task.id, content: "Which?", options: ["A", "B"], context: "ctx", priority: 1 },
      });
      expect(question.status).toBe(201);
      const [item] = (await call("GET", `/api/workspaces/${own}/board/column/in_review`, { token })).body.items;
      const runs = await call("GET", `/api/workspaces/${own}/tasks/${task.id}/runs`, { token });
      // The history adds each run's execution_id (to open its view) and why a queued one waits; the run record itself is the same.
      expect(item.task_runs).toEqual(runs.body.map(withoutExecutionId));
      expect(item.task_runs[0]).toMatchObject({
        started_at: "2026-01-02T03:04:05.600Z",
        finished_at: "2026-01-02T03:05:00.000Z",
        duration_seconds: 54.4,
      });
      expect(item.questions).toEqual([question.body]);
      expect(item).toMatchObject({
        latest_run_status: "failed",
        latest_run_error: "exit status 3",
        latest_run_trigger: "fix_conflicts",
        blocked: true,
      });
      for (const field of ["created_at", "updated_at"]) expect(item[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(item.created_at).toBe(task.created_at);
      expect((await call("GET", `/api/workspaces/${own}/tasks/${task.id}`, { token })).body).toEqual(item);
    });

    it("column items carry project and phase names, open questions and runs", async () => {
      const own = (await newWorkspace(token)).id;
      const projectId = crypto.randomUUID();
      await sql(`INSERT INTO projects (id, workspace_id, name, phases, updated_at) VALUES ($1, $2, 'Zeus', ARRAY['One'], now())`, [
        projectId,
        own,
      ]);
      const linked = await createTask(token, own, { status: "todo", project_id: projectId, phase: 1, title: "linked" });
      const plain = await createTask(token, own, { status: "todo", title: "plain" });
      await sql(`INSERT INTO questions (id, workspace_id, task_id, content) VALUES ($1, $2, $3, 'Why?')`, [
        crypto.randomUUID(),
        own,
        linked.id,
      ]);
      await sql(
        `INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger) VALUES ($1, $2, $3, 1, 'running', 'manual')`,
        [crypto.randomUUID(), linked.id, own],
      );
      const response = await call("GET", `/api/workspaces/${own}/board/column/todo`, { token });
      const [first, second] = response.body.items;
      expect(first).toMatchObject({
        id: linked.id,
        project_name: "Zeus",
        phase_name: "One",
        blocked: true,
        latest_run_status: "running",
        latest_run_trigger: "manual",
        latest_run_error: null,
      });
      expect(first.questions).toEqual([expect.objectContaining({ content: "Why?", task_title: "linked", status: "open" })]);
      expect(first.task_runs).toHaveLength(1);
      expect(second).toMatchObject({ id: plain.id, project_name: null, blocked: false, questions: [], task_runs: [] });
      const board = await call("GET", `/api/workspaces/${own}/board`, { token });
      expect(board.body.columns[1].items[0]).toEqual(taskCard.parse(first));
      expect(await columnIds(token, own, "todo")).toEqual([linked.id, plain.id]);
    });
  });
}

/** A run history item without its execution_id: the run record the board embeds. */
function withoutExecutionId(item: Record<string, unknown>) {
  const run = { ...item };
  delete run.execution_id;
  delete run.waiting_for_runner;
  return run;
}
