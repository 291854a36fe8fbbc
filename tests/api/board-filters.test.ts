import { beforeAll, describe, expect, it } from "vitest";
import { call, onlyError, userWithWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// `project_id`, `tag` and `priority` on the board and its columns (issue #37, "Search and
// filters"): each narrows, they combine with each other and with `q`, and the totals count only
// the matches. Bad values are 422 at the query parameter.

const made = userWithWorkspace();
let token: string;
let ws: string;
let project: string;
const titles = (body: { items: { title: string }[] }) => body.items.map((task) => task.title);
const column = (query: string) => call("GET", `/api/workspaces/${ws}/board/column/todo?${query}`, { token });

beforeAll(async () => {
  ({ token, ws } = made);
  const created = await call("POST", `/api/workspaces/${ws}/projects`, { token, json: { name: "Filters" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  project = created.body.id;
  await createTask(token, ws, { title: "In project, ui, p1", status: "todo", project_id: project, tags: ["ui"], priority: "p1" });
  await createTask(token, ws, { title: "In project, api", status: "todo", project_id: project, tags: ["api"] });
  await createTask(token, ws, { title: "Loose, ui, p1", status: "todo", tags: ["ui", "x"], priority: "p1" });
  await createTask(token, ws, { title: "Loose in review", status: "in_review", project_id: project, tags: ["ui"] });
});

describe("the board's project, tag and priority filters", () => {
  it("narrow a column page one by one and together, counting only the matches", async () => {
    expect(titles((await column(`project_id=${project}`)).body)).toEqual(["In project, ui, p1", "In project, api"]);
    expect(titles((await column("tag=ui")).body)).toEqual(["In project, ui, p1", "Loose, ui, p1"]);
    expect(titles((await column("priority=p1")).body)).toEqual(["In project, ui, p1", "Loose, ui, p1"]);
    const all = await column(`project_id=${project}&tag=ui&priority=p1&view=compact`);
    expect(all.body).toMatchObject({ total: 1, has_more: false });
    expect(titles(all.body)).toEqual(["In project, ui, p1"]);
    expect((await column("tag=UI")).body.total).toBe(0);
    expect(titles((await column(`project_id=${project}&q=api`)).body)).toEqual(["In project, api"]);
  });

  it("narrow the whole board's first pages the same way", async () => {
    const board = await call("GET", `/api/workspaces/${ws}/board?project_id=${project}&tag=ui`, { token });
    expect(board.status).toBe(200);
    const totals = Object.fromEntries(board.body.columns.map((c: { key: string; total: number }) => [c.key, c.total]));
    expect(totals).toEqual({ backlog: 0, todo: 1, in_progress: 0, in_review: 1, done: 0 });
  });

  it("refuse a priority that is none with 422 at the parameter", async () => {
    const bad = await column("priority=p9");
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body).loc).toEqual(["query", "priority"]);
    const long = await call("GET", `/api/workspaces/${ws}/board?tag=${"t".repeat(51)}`, { token });
    expect(long.status).toBe(422);
  });
});
