import { beforeAll, describe, expect, it } from "vitest";
import { call, onlyError, userWithWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// `q` on the board and its columns (issue #37): words of the title or the description, any case, or
// a task's number as `#12` or `12`; with `assignee` it narrows further. Without `q` and `assignee`
// the column endpoint answers exactly as the interface says (tests/api/board.test.ts).

const made = userWithWorkspace();
let token: string;
let ws: string;
const tasks: Record<string, { id: string; number: number }> = {};
const titles = (body: { items: { title: string }[] }) => body.items.map((task) => task.title);

beforeAll(async () => {
  ({ token, ws } = made);
  tasks.login = await createTask(token, ws, { title: "Fix the login page", status: "todo", description: "Users see a blank page." });
  tasks.cache = await createTask(token, ws, { title: "Tune the cache", status: "todo", description: "The LOGIN service is slow." });
  tasks.docs = await createTask(token, ws, { title: "Write docs", status: "todo" });
  tasks.mine = await createTask(token, ws, {
    title: "Login audit",
    status: "in_progress",
    assignees: [{ kind: "user", id: made.owner.id }],
  });
});

describe("GET …/board/column/{column}?q=", () => {
  it("finds words in titles and descriptions, any case, and counts only the matches", async () => {
    const res = await call("GET", `/api/workspaces/${ws}/board/column/todo?q=login`, { token });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(["Fix the login page", "Tune the cache"]);
    expect(res.body).toMatchObject({ total: 2, has_more: false });
    const none = await call("GET", `/api/workspaces/${ws}/board/column/todo?q=nothing-like-this`, { token });
    expect(none.body).toMatchObject({ items: [], total: 0, has_more: false });
  });

  it("finds a task by its number, with or without #", async () => {
    for (const q of [`%23${tasks.docs.number}`, String(tasks.docs.number)]) {
      const res = await call("GET", `/api/workspaces/${ws}/board/column/todo?q=${q}`, { token });
      expect(titles(res.body), q).toEqual(["Write docs"]);
    }
  });

  it("combines with the assignee filter, also on the board's first pages", async () => {
    const res = await call("GET", `/api/workspaces/${ws}/board?q=login&assignee=me`, { token });
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.columns.map((c: { key: string; items: { title: string }[]; total: number }) => [c.key, c]));
    expect(titles(byKey.todo)).toEqual([]);
    expect(titles(byKey.in_progress)).toEqual(["Login audit"]);
    expect(byKey.in_progress.total).toBe(1);
    const all = await call("GET", `/api/workspaces/${ws}/board?q=login`, { token });
    const todo = all.body.columns.find((c: { key: string }) => c.key === "todo");
    expect(titles(todo)).toEqual(["Fix the login page", "Tune the cache"]);
  });

  it("422 for an empty or too long q", async () => {
    for (const q of ["", "x".repeat(201)]) {
      const res = await call("GET", `/api/workspaces/${ws}/board/column/todo?q=${q}`, { token });
      expect(res.status, `q of ${q.length}`).toBe(422);
      expect(onlyError(res.body).loc).toEqual(["query", "q"]);
    }
  });
});
