import { beforeAll, describe, expect, it } from "vitest";
import { admin, baseUrl, call, client, newUser, uniqueName, userWithWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";
import { data, mcpConnector, newApiKey, tool } from "../helpers/mcp";

// The viewer role (docs/SECURITY.md, "Roles"): reads everything; every write of a workspace route
// answers 403 in words, refused once in withWorkspace (lib/api/handler.ts), and through MCP too.
// Also here: the people picker's search and display names.

const made = userWithWorkspace();
const connect = mcpConnector(baseUrl);
let viewer: Awaited<ReturnType<typeof newUser>>;
let task: { id: string };
let question: { id: string };
const ws = (path = "") => `/api/workspaces/${made.ws}${path}`;
const VIEWER_WORDS = /^Viewers can read this workspace but not change it/;

beforeAll(async () => {
  viewer = await newUser();
  const added = await call("POST", ws("/members"), { token: made.token, json: { username: viewer.username, role: "viewer" } });
  expect(added.body.role).toBe("viewer");
  task = await createTask(made.token, made.ws, { title: "read me", status: "todo" });
  question = (await call("POST", ws("/questions"), { token: made.token, json: { task_id: task.id, content: "Which one?" } })).body;
});

describe("a viewer", () => {
  it("reads the workspace, its board, tasks, questions, projects and members", async () => {
    for (const path of ["", "/board", `/tasks/${task.id}`, "/questions", "/projects", "/members", "/board/column/todo"]) {
      const read = await call("GET", ws(path), { token: viewer.token });
      expect(read.status, path).toBe(200);
    }
    expect((await call("GET", ws(), { token: viewer.token })).body.role).toBe("viewer");
  });

  const writes: [string, string, () => string, () => unknown][] = [
    ["create a task", "POST", () => ws("/tasks"), () => ({ title: "no" })],
    ["change a task", "PATCH", () => ws(`/tasks/${task.id}`), () => ({ title: "changed" })],
    ["move a task", "POST", () => ws(`/tasks/${task.id}/move`), () => ({ column: "done" })],
    ["delete a task", "DELETE", () => ws(`/tasks/${task.id}`), () => undefined],
    ["answer a question", "POST", () => ws(`/questions/${question.id}/answer`), () => ({ answer: "this one" })],
    ["ask a question", "POST", () => ws("/questions"), () => ({ task_id: task.id, content: "?" })],
    ["create a project", "POST", () => ws("/projects"), () => ({ name: "p" })],
    ["start a run", "POST", () => ws(`/tasks/${task.id}/runs`), () => ({})],
    ["rename the workspace", "PATCH", () => ws(), () => ({ name: "mine now" })],
  ];
  it.each(writes)("may not %s (403 in words), and nothing changes", async (_name, method, path, json) => {
    const refused = await call(method, path(), { token: viewer.token, json: json() });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(VIEWER_WORDS);
    const after = await call("GET", ws(`/tasks/${task.id}`), { token: made.token });
    expect(after.body).toMatchObject({ title: "read me", status: "todo" });
    const asked = await call("GET", ws("/questions"), { token: made.token });
    expect(asked.body.find((q: { id: string }) => q.id === question.id)).toMatchObject({ status: "open", answer: null });
  });

  it("is refused the writing MCP tools with its API key too, and may use the reading ones", async () => {
    const key = await newApiKey(client(baseUrl()), viewer.token);
    const mcp = await connect(key.key);
    const created = await tool(mcp, "create_task", { workspace_id: made.ws, title: "via mcp" });
    expect(created.isError).toBe(true);
    expect(created.content[0].text).toMatch(VIEWER_WORDS);
    const moved = await tool(mcp, "move_task", { workspace_id: made.ws, task_id: task.id, column: "done" });
    expect(moved.content[0].text).toMatch(VIEWER_WORDS);
    expect(data(await tool(mcp, "get_task", { workspace_id: made.ws, task_id: task.id })).status).toBe("todo");
  });

  it("becomes a writer when an owner makes them a member again", async () => {
    const other = await newUser();
    await call("POST", ws("/members"), { token: made.token, json: { username: other.username, role: "viewer" } });
    expect((await call("POST", ws("/tasks"), { token: other.token, json: { title: "x" } })).status).toBe(403);
    await call("DELETE", ws(`/members/${other.id}`), { token: made.token });
    await call("POST", ws("/members"), { token: made.token, json: { username: other.username, role: "member" } });
    expect((await call("POST", ws("/tasks"), { token: other.token, json: { title: "x" } })).status).toBe(201);
  });
});

describe("GET /api/users/search", () => {
  it("finds enabled users by part of a username or display name, names only, at most 20, leaving members out", async () => {
    const stem = uniqueName("findme");
    const named = await call("POST", "/api/users", {
      token: await admin(),
      json: { username: `${stem}_a`, password: "password-1234", display_name: "Zelda Quux" },
    });
    expect(named.status).toBe(201);
    const byName = await call("GET", `/api/users/search?q=${stem}`, { token: made.token });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([{ id: named.body.id, username: `${stem}_a`, display_name: "Zelda Quux" }]);
    const byDisplay = await call("GET", `/api/users/search?q=zelda%20qu`, { token: made.token });
    expect(byDisplay.body.map((u: { id: string }) => u.id)).toContain(named.body.id);

    const all = await call("GET", "/api/users/search?q=user_", { token: made.token });
    expect(all.body.length).toBeLessThanOrEqual(20);
    const notMembers = await call("GET", `/api/users/search?q=${viewer.username}&workspace_id=${made.ws}`, { token: made.token });
    expect(notMembers.body).toEqual([]);
  });

  it("is refused to someone who owns no workspace (403), and to a viewer for that workspace", async () => {
    const plain = await newUser();
    const refused = await call("GET", "/api/users/search?q=a", { token: plain.token });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/workspace owners and administrators/);
    const asViewer = await call("GET", `/api/users/search?q=a&workspace_id=${made.ws}`, { token: viewer.token });
    expect(asViewer.status).toBe(403);
  });
});

describe("display names", () => {
  it("are set by the person themself with PATCH /api/auth/me, shown in the member list, and cleared with null", async () => {
    const set = await call("PATCH", "/api/auth/me", { token: viewer.token, json: { display_name: "  Vera Viewer " } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ username: viewer.username, display_name: "Vera Viewer" });
    const members = await call("GET", ws("/members"), { token: made.token });
    expect(members.body).toContainEqual(expect.objectContaining({ user_id: viewer.id, display_name: "Vera Viewer", role: "viewer" }));
    const cleared = await call("PATCH", "/api/auth/me", { token: viewer.token, json: { display_name: null } });
    expect(cleared.body.display_name).toBeNull();
    const tooLong = await call("PATCH", "/api/auth/me", { token: viewer.token, json: { display_name: "x".repeat(101) } });
    expect(tooLong.status).toBe(422);
  });
});
