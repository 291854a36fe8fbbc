import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError, uniqueName } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// A task's comments (issue #37): create, list (newest last, paged back with `before`), edit and
// delete by their author only, refusals in words, mentions of members recorded, and an `@agent`
// starting that profile's run once. The profiles carry a label no runner has, so their runs stay
// queued: a run is counted, never run. An agent token's comments: tests/api/agent-comments.test.ts.

let token: string;
let ws: string;
let me: { id: string; username: string };
let colleague: Awaited<ReturnType<typeof newUser>>;
let viewer: Awaited<ReturnType<typeof newUser>>;
let stranger: Awaited<ReturnType<typeof newUser>>;

const comments = (taskId: string, workspace = ws) => `/api/workspaces/${workspace}/tasks/${taskId}/comments`;
const post = (taskId: string, body: unknown, bearer = token) => call("POST", comments(taskId), { token: bearer, json: { body } });
const runsOf = async (taskId: string) =>
  (await call("GET", `/api/workspaces/${ws}/tasks/${taskId}/runs`, { token })).body as {
    trigger: string;
    status: string;
    agent_id: string;
  }[];

async function profile(name: string) {
  const created = await call("POST", `/api/workspaces/${ws}/agents`, {
    token,
    json: { name, kind: "command", command: "/bin/true", labels: ["comments-only"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

beforeAll(async () => {
  // Only administrators add command profiles.
  const owner = await newUser({ isAdmin: true });
  token = owner.token;
  me = { id: owner.id, username: owner.username };
  ws = (await newWorkspace(token)).id;
  colleague = await newUser();
  viewer = await newUser();
  stranger = await newUser();
  for (const [user, role] of [
    [colleague, "member"],
    [viewer, "viewer"],
  ] as const) {
    const added = await call("POST", `/api/workspaces/${ws}/members`, { token, json: { username: user.username, role } });
    expect(added.status).toBe(201);
  }
});

describe("comments", () => {
  it("are created with their author and listed newest last", async () => {
    const task = await createTask(token, ws);
    const first = await post(task.id, "First **words**");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      task_id: task.id,
      author: { kind: "user", id: me.id, name: me.username },
      body: "First **words**",
      mentions: [],
      edited: false,
    });
    expect(first.body.created_at).toBe(first.body.updated_at);
    const second = await post(task.id, "Second", colleague.token);
    expect(second.body.author).toEqual({ kind: "user", id: colleague.id, name: colleague.username });
    const list = await call("GET", comments(task.id), { token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [first.body, second.body], next_before: null });
  });

  it("page back with `before`, a bounded `limit`", async () => {
    const task = await createTask(token, ws);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(task.id, `n${i}`)).body.id);
    const newest = await call("GET", `${comments(task.id)}?limit=2`, { token });
    expect(newest.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(3));
    expect(newest.body.next_before).toBe(ids[3]);
    const older = await call("GET", `${comments(task.id)}?limit=2&before=${newest.body.next_before}`, { token });
    expect(older.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(1, 3));
    const oldest = await call("GET", `${comments(task.id)}?limit=2&before=${older.body.next_before}`, { token });
    expect(oldest.body).toMatchObject({ next_before: null });
    expect(oldest.body.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    for (const bad of ["0", "101", "x"]) expect((await call("GET", `${comments(task.id)}?limit=${bad}`, { token })).status).toBe(422);
    const unknown = await call("GET", `${comments(task.id)}?before=nope`, { token });
    expect(unknown.status).toBe(404);
  });

  it("are edited and deleted by their author only, 403 in words for anyone else", async () => {
    const task = await createTask(token, ws);
    const mine = (await post(task.id, "tpyo")).body;
    const url = `${comments(task.id)}/${mine.id}`;
    const theirs = await call("PATCH", url, { token: colleague.token, json: { body: "hijacked" } });
    expect(theirs.status).toBe(403);
    expect(theirs.body.detail).toMatch(/only the author of a comment may edit it/i);
    expect((await call("DELETE", url, { token: colleague.token })).status).toBe(403);
    const edited = await call("PATCH", url, { token, json: { body: "typo" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: mine.id, body: "typo", edited: true, created_at: mine.created_at });
    expect(edited.body.updated_at > mine.updated_at).toBe(true);
    expect((await call("DELETE", url, { token })).status).toBe(204);
    expect((await call("DELETE", url, { token })).status).toBe(404);
    expect((await call("GET", comments(task.id), { token })).body.items).toEqual([]);
  });

  it("answer 404 for another workspace's task or comment, and for strangers", async () => {
    const task = await createTask(token, ws);
    const comment = (await post(task.id, "here")).body;
    const other = (await newWorkspace(stranger.token)).id;
    const foreignTask = await createTask(stranger.token, other);
    expect((await post(foreignTask.id, "in")).status).toBe(404);
    expect((await call("POST", comments(task.id, other), { token: stranger.token, json: { body: "x" } })).status).toBe(404);
    expect((await call("PATCH", `${comments(foreignTask.id)}/${comment.id}`, { token, json: { body: "x" } })).status).toBe(404);
    expect((await call("PATCH", `${comments(task.id, other)}/${comment.id}`, { token: stranger.token, json: { body: "x" } })).status).toBe(
      404,
    );
    expect((await call("GET", comments(task.id), { token: stranger.token })).status).toBe(404);
    expect((await call("GET", comments(task.id))).status).toBe(401);
  });

  it("are refused to viewers with 403", async () => {
    const task = await createTask(token, ws);
    const comment = (await post(task.id, "hi")).body;
    const refused = await post(task.id, "let me in", viewer.token);
    expect(refused.status).toBe(403);
    expect(typeof refused.body.detail).toBe("string");
    expect((await call("PATCH", `${comments(task.id)}/${comment.id}`, { token: viewer.token, json: { body: "x" } })).status).toBe(403);
    expect((await call("DELETE", `${comments(task.id)}/${comment.id}`, { token: viewer.token })).status).toBe(403);
  });

  it("validate their body: 1 to 20,000 characters, no NUL (422)", async () => {
    const task = await createTask(token, ws);
    for (const bad of ["", "   \n", "x".repeat(20_001), "nul\u0000here", 5, null]) {
      const refused = await post(task.id, bad);
      expect(refused.status, JSON.stringify(bad).slice(0, 40)).toBe(422);
      expect(onlyError(refused.body).loc).toEqual(["body", "body"]);
    }
    expect((await call("POST", comments(task.id), { token, json: {} })).status).toBe(422);
    expect((await post(task.id, "x".repeat(20_000))).status).toBe(201);
    const comment = (await post(task.id, "ok")).body;
    expect((await call("PATCH", `${comments(task.id)}/${comment.id}`, { token, json: { body: "" } })).status).toBe(422);
  });
});

describe("mentions", () => {
  it("of members are recorded by id; other names and email addresses are not", async () => {
    const task = await createTask(token, ws);
    const text = `Hey @${colleague.username.toUpperCase()}, and @${me.username}. Not @${stranger.username} nor mail@${viewer.username}`;
    const created = await post(task.id, text);
    expect(created.body.mentions.sort()).toEqual([colleague.id, me.id].sort());
    const edited = await call("PATCH", `${comments(task.id)}/${created.body.id}`, { token, json: { body: `only @${viewer.username}` } });
    expect(edited.body.mentions).toEqual([viewer.id]);
  });

  it("of an agent profile start exactly one run of it by its dashed name too", async () => {
    const name = `${uniqueName("Code")} Reviewer`;
    const agentId = await profile(name);
    const task = await createTask(token, ws, { status: "backlog" });
    const created = await post(task.id, `@${name.replaceAll(" ", "-").toLowerCase()} please look at this`);
    expect(created.status).toBe(201);
    const runs = await runsOf(task.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "mentioned", status: "queued", agent_id: agentId });
    // An edit naming it again, or a comment that names no profile, starts nothing more.
    await call("PATCH", `${comments(task.id)}/${created.body.id}`, { token, json: { body: `@${name} again` } });
    await post(task.id, "@nobody-here");
    expect(await runsOf(task.id)).toHaveLength(1);
  });
});
