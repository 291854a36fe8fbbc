import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError, uniqueName } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// Tasks that belong to someone (issue #37): assignees (members and agent profiles of the workspace),
// the board's and a column's `assignee` filter, an assigned agent's run (once per assignment, off
// with auto_start_assigned). The profiles carry a label no runner has, so their runs stay queued:
// a run is counted, never run.

let token: string;
let ws: string;
let me: { id: string; username: string };
let colleague: Awaited<ReturnType<typeof newUser>>;
let agent: { id: string; name: string };
let foreignAgent: string;
let stranger: Awaited<ReturnType<typeof newUser>>;

const base = () => `/api/workspaces/${ws}`;

async function profile(workspace: string, bearer: string) {
  const name = uniqueName("agent");
  const created = await call("POST", `/api/workspaces/${workspace}/agents`, {
    token: bearer,
    json: { name, kind: "command", command: "/bin/true", labels: ["assignees-only"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, name };
}

const patch = (taskId: string, json: Record<string, unknown>) => call("PATCH", `${base()}/tasks/${taskId}`, { token, json });
const runsOf = async (taskId: string) =>
  (await call("GET", `${base()}/tasks/${taskId}/runs`, { token })).body as { execution_id: string; trigger: string; status: string }[];

beforeAll(async () => {
  // Only administrators add command profiles (a profile is a command the server runs).
  const owner = await newUser({ isAdmin: true });
  token = owner.token;
  ws = (await newWorkspace(token)).id;
  me = { id: owner.id, username: owner.username };
  colleague = await newUser();
  stranger = await newUser({ isAdmin: true });
  expect((await call("POST", `${base()}/members`, { token, json: { username: colleague.username } })).status).toBe(201);
  agent = await profile(ws, token);
  const other = await newWorkspace(stranger.token);
  foreignAgent = (await profile(other.id, stranger.token)).id;
});

describe("assignees on create and PATCH", () => {
  it("are stored in the given order and returned with their names (a display name first), on the task and its card", async () => {
    const named = await newUser();
    expect((await call("POST", `${base()}/members`, { token, json: { username: named.username } })).status).toBe(201);
    expect((await call("PATCH", "/api/auth/me", { token: named.token, json: { display_name: "Ada Lovelace" } })).status).toBe(200);
    const given = [named.id, agent.id, me.id].map((id) => ({ kind: id === agent.id ? "agent" : "user", id }));
    const task = await createTask(token, ws, { assignees: given });
    expect(task.assignees).toEqual([
      { kind: "user", id: named.id, name: "Ada Lovelace" },
      { kind: "agent", id: agent.id, name: agent.name },
      { kind: "user", id: me.id, name: me.username },
    ]);
    const read = await call("GET", `${base()}/tasks/${task.id}`, { token });
    expect(read.body.assignees).toEqual(task.assignees);
    const board = await call("GET", `${base()}/board?limit=100`, { token });
    const cards = board.body.columns.flatMap((column: { items: { id: string; assignees: unknown }[] }) => column.items);
    expect(cards.find((card: { id: string }) => card.id === task.id)?.assignees).toEqual(task.assignees);
    // In Backlog: no run.
    expect(await runsOf(task.id)).toEqual([]);
  });

  it("default to none, and PATCH replaces the whole list (left out, it stays)", async () => {
    const task = await createTask(token, ws);
    expect(task.assignees).toEqual([]);
    const both = await patch(task.id, {
      assignees: [
        { kind: "user", id: me.id },
        { kind: "user", id: colleague.id },
      ],
    });
    expect(both.status).toBe(200);
    expect(both.body.assignees.map((a: { id: string }) => a.id)).toEqual([me.id, colleague.id]);
    const one = await patch(task.id, { assignees: [{ kind: "user", id: colleague.id }] });
    expect(one.body.assignees).toEqual([{ kind: "user", id: colleague.id, name: colleague.username }]);
    const untouched = await patch(task.id, { title: "renamed" });
    expect(untouched.body.assignees).toEqual(one.body.assignees);
    const none = await patch(task.id, { assignees: [] });
    expect(none.body.assignees).toEqual([]);
  });

  it("say who came and went in the task's activity", async () => {
    const task = await createTask(token, ws, { assignees: [{ kind: "user", id: me.id }] });
    await patch(task.id, { assignees: [{ kind: "user", id: colleague.id }] });
    const activity = await call("GET", `${base()}/tasks/${task.id}/activity`, { token });
    const summaries = activity.body.items.map((item: { summary: string }) => item.summary);
    expect(summaries[0]).toBe(`Assigned ${colleague.username}; unassigned ${me.username}`);
    expect(summaries.at(-1)).toBe(`Created the task in Backlog, assigned ${me.username}`);
  });

  it.each([
    ["a user of the server who is not a member", () => ({ kind: "user", id: stranger.id })],
    ["an agent profile of another workspace", () => ({ kind: "agent", id: foreignAgent })],
    ["a member's id given as an agent", () => ({ kind: "agent", id: me.id })],
    ["an id that names nothing", () => ({ kind: "user", id: "0195f000-0000-7000-8000-000000000000" })],
  ])("refuse %s with 422 at the entry, on create and on PATCH", async (_what, entry) => {
    const created = await call("POST", `${base()}/tasks`, {
      token,
      json: { title: "x", assignees: [{ kind: "user", id: me.id }, entry()] },
    });
    expect(created.status).toBe(422);
    expect(onlyError(created.body)).toEqual({ loc: ["body", "assignees", 1, "id"], type: "value_error" });
    const task = await createTask(token, ws);
    const patched = await patch(task.id, { assignees: [entry()] });
    expect(patched.status).toBe(422);
    expect(onlyError(patched.body).loc).toEqual(["body", "assignees", 0, "id"]);
    expect((await call("GET", `${base()}/tasks/${task.id}`, { token })).body.assignees).toEqual([]);
  });

  it("refuse a duplicate, an unknown kind and more than 10 with 422", async () => {
    const task = await createTask(token, ws);
    const twice = await patch(task.id, {
      assignees: [
        { kind: "user", id: me.id },
        { kind: "user", id: me.id },
      ],
    });
    expect(twice.status).toBe(422);
    expect(onlyError(twice.body).loc).toEqual(["body", "assignees", 1]);
    const kind = await patch(task.id, { assignees: [{ kind: "team", id: me.id }] });
    expect(kind.status).toBe(422);
    expect(onlyError(kind.body).loc).toEqual(["body", "assignees", 0, "kind"]);
    const many = await patch(task.id, { assignees: Array.from({ length: 11 }, (_, i) => ({ kind: "user", id: `u${i}` })) });
    expect(many.status).toBe(422);
    expect(onlyError(many.body)).toEqual({ loc: ["body", "assignees"], type: "too_long" });
    const shape = await patch(task.id, { assignees: "me" });
    expect(shape.status).toBe(422);
  });
});

describe("the assignee filter", () => {
  let mine: string;
  let theirs: string;
  let agents: string;
  let nobody: string;
  let filterWs: string;
  let botId: string;

  beforeAll(async () => {
    // A workspace of its own, so the counts are exact.
    filterWs = (await newWorkspace(token)).id;
    expect((await call("POST", `/api/workspaces/${filterWs}/members`, { token, json: { username: colleague.username } })).status).toBe(201);
    const bot = await profile(filterWs, token);
    const make = async (title: string, status: string, assignees: unknown[]) =>
      (await call("POST", `/api/workspaces/${filterWs}/tasks`, { token, json: { title, status, assignees } })).body.id as string;
    mine = await make("mine", "backlog", [{ kind: "user", id: me.id }]);
    theirs = await make("theirs", "backlog", [{ kind: "user", id: colleague.id }]);
    botId = bot.id;
    agents = await make("the agent's", "in_review", [
      { kind: "agent", id: bot.id },
      { kind: "user", id: me.id },
    ]);
    nobody = await make("nobody's", "backlog", []);
  });

  const board = async (query: string, bearer = token) => call("GET", `/api/workspaces/${filterWs}/board${query}`, { token: bearer });
  const cardIds = (body: { columns: { key: string; total: number; items: { id: string }[] }[] }) =>
    body.columns.flatMap((column) => column.items.map((item) => item.id)).sort();

  it("narrows the board to the caller's tasks with `me`, and counts only those", async () => {
    const response = await board("?assignee=me");
    expect(response.status).toBe(200);
    expect(cardIds(response.body)).toEqual([mine, agents].sort());
    const totals = Object.fromEntries(response.body.columns.map((c: { key: string; total: number }) => [c.key, c.total]));
    expect(totals).toEqual({ backlog: 1, todo: 0, in_progress: 0, in_review: 1, done: 0 });
    // The card carries its assignees.
    const card = response.body.columns.find((c: { key: string }) => c.key === "in_review").items[0];
    expect(card.assignees.map((a: { kind: string }) => a.kind)).toEqual(["agent", "user"]);
    // `me` is whoever asks.
    expect(cardIds((await board("?assignee=me", colleague.token)).body)).toEqual([theirs]);
  });

  it("narrows by a member's id or an agent profile's id; unfiltered, every task", async () => {
    expect(cardIds((await board(`?assignee=${colleague.id}`)).body)).toEqual([theirs]);
    expect(cardIds((await board(`?assignee=${botId}`)).body)).toEqual([agents]);
    expect(cardIds((await board(`?assignee=${stranger.id}`)).body)).toEqual([]);
    expect(cardIds((await board("")).body)).toEqual([mine, theirs, agents, nobody].sort());
  });

  it("narrows a column page, full and compact, with its documented parameters unchanged", async () => {
    const column = (query: string) => call("GET", `/api/workspaces/${filterWs}/board/column/backlog${query}`, { token });
    const full = await column("?assignee=me&limit=1&offset=0&sort_by=title&sort_dir=desc");
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ total: 1, has_more: false });
    expect(full.body.items.map((t: { id: string }) => t.id)).toEqual([mine]);
    const compact = await column(`?assignee=${colleague.id}&view=compact`);
    expect(compact.body.items.map((t: { id: string }) => t.id)).toEqual([theirs]);
    const all = await column("?limit=2&offset=1&sort_by=title&sort_dir=asc");
    expect(all.body).toMatchObject({ total: 3, has_more: false });
    expect(all.body.items.map((t: { title: string }) => t.title)).toEqual(["nobody's", "theirs"]);
    expect((await column("?assignee=")).status).toBe(422);
    expect((await column(`?assignee=${"x".repeat(101)}`)).status).toBe(422);
  });
});

describe("assigning an agent starts its run", () => {
  it("once per assignment, on a task in To do or In progress", async () => {
    const task = await createTask(token, ws, { status: "todo" });
    const assigned = await patch(task.id, { assignees: [{ kind: "agent", id: agent.id }] });
    expect(assigned.status).toBe(200);
    const runs = await runsOf(task.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "assigned", status: "queued" });
    // Cancelled, then the same list saved again: no new assignment, no new run.
    const cancel = await call("POST", `${base()}/executions/${runs[0].execution_id}/cancel`, { token });
    expect(cancel.status, JSON.stringify(cancel.body)).toBeLessThan(300);
    await patch(task.id, { assignees: [{ kind: "agent", id: agent.id }], title: "saved again" });
    await patch(task.id, {
      assignees: [
        { kind: "agent", id: agent.id },
        { kind: "user", id: me.id },
      ],
    });
    expect(await runsOf(task.id)).toHaveLength(1);
    // Unassigned and assigned again is a new assignment.
    await patch(task.id, { assignees: [] });
    await patch(task.id, { assignees: [{ kind: "agent", id: agent.id }] });
    expect(await runsOf(task.id)).toHaveLength(2);
  });

  it("on create in In progress; never in Backlog, In review or Done", async () => {
    const started = await createTask(token, ws, { status: "in_progress", assignees: [{ kind: "agent", id: agent.id }] });
    expect((await runsOf(started.id)).map((run) => run.trigger)).toEqual(["assigned"]);
    for (const status of ["backlog", "in_review", "done"]) {
      const task = await createTask(token, ws, { status, assignees: [{ kind: "agent", id: agent.id }] });
      expect(await runsOf(task.id)).toEqual([]);
    }
  });

  it("not when the workspace's auto_start_assigned is off (owners change it; default on)", async () => {
    const other = (await newWorkspace(token)).id;
    const read = await call("GET", `/api/workspaces/${other}`, { token });
    expect(read.body.auto_start_assigned).toBe(true);
    const bot = await profile(other, token);
    const off = await call("PATCH", `/api/workspaces/${other}`, { token, json: { auto_start_assigned: false } });
    expect(off.status).toBe(200);
    expect(off.body.auto_start_assigned).toBe(false);
    const task = await call("POST", `/api/workspaces/${other}/tasks`, {
      token,
      json: { title: "quiet", status: "todo", assignees: [{ kind: "agent", id: bot.id }] },
    });
    expect(task.status).toBe(201);
    const runs = await call("GET", `/api/workspaces/${other}/tasks/${task.body.id}/runs`, { token });
    expect(runs.body).toEqual([]);
    const bad = await call("PATCH", `/api/workspaces/${other}`, { token, json: { auto_start_assigned: "no" } });
    expect(bad.status).toBe(422);
  });
});

describe("due_at", () => {
  it("is set, changed and cleared, and refused with 422 when not a timestamp", async () => {
    const task = await createTask(token, ws, { due_at: "2026-12-03T10:00:00+01:00" });
    expect(task.due_at).toBe("2026-12-03T09:00:00.000Z");
    const changed = await patch(task.id, { due_at: "2027-01-01T00:00:00Z" });
    expect(changed.body.due_at).toBe("2027-01-01T00:00:00.000Z");
    expect((await patch(task.id, { title: "kept" })).body.due_at).toBe("2027-01-01T00:00:00.000Z");
    expect((await patch(task.id, { due_at: null })).body.due_at).toBeNull();
    for (const bad of ["tomorrow", "2026-13-01T00:00:00Z", "2026-12-03", 1764000000]) {
      const refused = await patch(task.id, { due_at: bad });
      expect(refused.status, String(bad)).toBe(422);
      expect(onlyError(refused.body).loc).toEqual(["body", "due_at"]);
    }
    const created = await call("POST", `${base()}/tasks`, { token, json: { title: "x", due_at: "soon" } });
    expect(created.status).toBe(422);
  });

  it("sorts a column with sort_by=due_at, tasks without one last in both directions", async () => {
    const sortWs = (await newWorkspace(token)).id;
    const make = async (title: string, due_at: string | null) =>
      (await call("POST", `/api/workspaces/${sortWs}/tasks`, { token, json: { title, due_at } })).body.id as string;
    const late = await make("late", "2027-03-01T00:00:00Z");
    const none = await make("none", null);
    const early = await make("early", "2026-12-01T00:00:00Z");
    const none2 = await make("none too", null);
    const page = async (query: string) =>
      (await call("GET", `/api/workspaces/${sortWs}/board/column/backlog?sort_by=due_at${query}`, { token })).body;
    const asc = await page("");
    expect(asc.items.map((t: { id: string }) => t.id)).toEqual([early, late, ...[none, none2].sort()]);
    const desc = await page("&sort_dir=desc&view=compact");
    expect(desc.items.map((t: { id: string }) => t.id)).toEqual([late, early, ...[none, none2].sort().reverse()]);
    const second = await page("&limit=2&offset=1");
    expect(second).toMatchObject({ total: 4, has_more: true });
    expect(second.items.map((t: { id: string }) => t.id)).toEqual([late, [none, none2].sort()[0]]);
  });
});
