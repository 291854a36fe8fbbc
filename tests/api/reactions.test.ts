import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  newStore,
  newTask,
  reactionsCaughtUp,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// Reactions (lib/reactions/, docs/architecture.md): what the board does after a committed change,
// each read from the workspace event log with its own cursor. Here: they are durable (an event
// committed by a server that died before reacting is reacted to by the next one), and their state
// is for owners only. Their behaviour is tested where it belongs: dependencies.test.ts,
// board-automation.test.ts, github-pull-requests.test.ts (a retried failure shown as last_error).

const ADMIN = { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "engine-admin-password" };
let store: Store;
let server: EngineServer;

beforeAll(async () => {
  store = await newStore("reactions");
  server = await engineServer(store, ADMIN, "reactions");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

describe("GET /api/workspaces/{id}/reactions", () => {
  it("lists each reaction with its cursor and last error, for owners only", async () => {
    const { token, wsId } = await workspaceOn(server);
    await newTask(server.call, token, wsId, { title: "an event" });
    const listed = await server.call("GET", `/api/workspaces/${wsId}/reactions`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((state: { name: string }) => state.name)).toEqual([
      "board-automation",
      "start-unblocked",
      "github-after-run",
      "fix-conflicts",
      "start-assigned-agents",
      "start-mentioned-agents",
      "notify-people",
      "notify-runs",
    ]);
    for (const state of listed.body) {
      expect(state).toMatchObject({ attempts: 0, last_error: null, next_attempt_at: null });
      expect(state.description).toMatch(/\w/);
    }

    const username = `member-${Date.now()}`;
    expect((await server.call("POST", "/api/users", { token, json: { username, password: "member-password" } })).status).toBe(201);
    expect((await server.call("POST", `/api/workspaces/${wsId}/members`, { token, json: { username, role: "member" } })).status).toBe(201);
    const member = (await server.call("POST", "/api/auth/login", { json: { username, password: "member-password" } })).body.access_token;
    expect((await server.call("GET", `/api/workspaces/${wsId}/reactions`, { token: member })).status).toBe(403);
    expect((await server.call("GET", `/api/workspaces/${wsId}/reactions`)).status).toBe(401);
    expect((await server.call("GET", `/api/workspaces/${wsId}/reactions`, { token: "not-a-token" })).status).toBe(401);
    const other = await workspaceOn(server);
    const foreign = await server.call("POST", "/api/auth/login", { json: { username, password: "member-password" } });
    expect((await server.call("GET", `/api/workspaces/${other.wsId}/reactions`, { token: foreign.body.access_token })).status).toBe(404);
  });
});

describe("a change committed by a server that died before reacting", () => {
  it("is reacted to by the next server: the dependant starts", async () => {
    const { token, wsId } = await workspaceOn(server);
    const at = `/api/workspaces/${wsId}`;
    expect((await server.call("PATCH", at, { token, json: { auto_start_unblocked: true } })).status).toBe(200);
    const dependant = await newTask(server.call, token, wsId, { title: "waits for the blocker", status: "todo" });
    const blocker = await newTask(server.call, token, wsId, { title: "the blocker", status: "in_progress" });
    expect((await server.call("POST", `${at}/tasks/${dependant.id}/dependencies/${blocker.id}`, { token })).status).toBe(200);
    const admin = (await server.call("GET", "/api/auth/me", { token })).body as { id: string };
    // Stopped idle (a server stopped while it holds a lease delays that row by the lease, 30 s).
    await reactionsCaughtUp(server.call, token, wsId);
    await server.stop();

    // What a move to done commits, written with the server down, so no process could react to it:
    // the row, its task.moved event (the data the reaction reads: the task's id and status) and the
    // head row's ids (an event the workers read: last_background_id too).
    await store.sql(
      `WITH moved AS (UPDATE tasks SET status = 'done', done_at = now() WHERE id = $1 RETURNING id, workspace_id),
            added AS (INSERT INTO workspace_events (workspace_id, task_id, type, actor, data)
                      SELECT workspace_id, id, 'task.moved', json_build_object('type', 'user', 'user_id', $2::text, 'username', 'admin'),
                             json_build_object('id', id, 'status', 'done') FROM moved RETURNING id, workspace_id)
       UPDATE workspace_event_heads h SET last_id = added.id, last_background_id = added.id FROM added WHERE h.workspace_id = added.workspace_id`,
      [blocker.id, admin.id],
    );

    server = await engineServer(store, ADMIN, "reactions-restarted");
    const login = await server.call("POST", "/api/auth/login", { json: { username: "admin", password: ADMIN.ADMIN_PASSWORD } });
    const runs = await eventually(async () => {
      const listed = await server.call("GET", `${at}/tasks/${dependant.id}/runs`, { token: login.body.access_token });
      return listed.body.length > 0 ? listed.body : undefined;
    }, 45_000);
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe("manual");
  }, 240_000);
});
