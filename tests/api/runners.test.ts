import { describe, expect, it } from "vitest";
import { admin, call, newUser, newWorkspace, onlyError, uniqueName } from "../helpers/api";

// Registering runners (docs/runners.md): administrators only, the token shown once, and a runner
// token that works only under /api/runner/… while no other credential works there.

async function register(json: unknown = { name: uniqueName("runner") }) {
  const created = await call("POST", "/api/runners", { token: await admin(), json });
  expect(created.status).toBe(201);
  return created.body as { id: string; name: string; token: string; capacity: number; labels: string[] };
}

const heartbeat = (token: string | undefined, headers?: Record<string, string>) =>
  call("POST", "/api/runner/heartbeat", { token, json: { executions: [] }, headers });

describe("POST /api/runners", () => {
  it("registers a runner: 201 with its record and a token, capacity 2 and no labels by default", async () => {
    const name = uniqueName("runner");
    const runner = await register({ name });
    expect(runner).toMatchObject({ name, capacity: 2, labels: [], status: "offline", running: 0, last_seen_at: null, sandbox: null });
    expect(runner.token).toMatch(/^tbn_/);
    const listed = (await call("GET", "/api/runners", { token: await admin() })).body as { id: string; token?: string }[];
    const row = listed.find((r) => r.id === runner.id);
    expect(row).toMatchObject({ id: runner.id, name, capacity: 2, labels: [], status: "offline", running: 0, version: null });
    expect(row).not.toHaveProperty("token");
  });

  it("keeps the capacity and labels given", async () => {
    const runner = await register({ name: uniqueName("gpu"), capacity: 5, labels: ["gpu", "docker"] });
    expect(runner).toMatchObject({ capacity: 5, labels: ["gpu", "docker"] });
  });

  it.each([
    [{}, ["body", "name"]],
    [{ name: "" }, ["body", "name"]],
    [{ name: "r", capacity: 0 }, ["body", "capacity"]],
    [{ name: "r", capacity: 1.5 }, ["body", "capacity"]],
    [{ name: "r", capacity: "2" }, ["body", "capacity"]],
    [{ name: "r", labels: ["has space"] }, ["body", "labels", 0]],
    [{ name: "r", labels: "gpu" }, ["body", "labels"]],
  ])("refuses %j with 422 at %j", async (json, loc) => {
    const response = await call("POST", "/api/runners", { token: await admin(), json });
    expect(response.status).toBe(422);
    expect(onlyError(response.body).loc).toEqual(loc);
  });

  it("is for administrators only: 403 for others, 401 without or with a bad credential", async () => {
    const user = await newUser();
    expect((await call("POST", "/api/runners", { token: user.token, json: { name: "mine" } })).status).toBe(403);
    expect((await call("GET", "/api/runners", { token: user.token })).status).toBe(403);
    expect((await call("POST", "/api/runners", { json: { name: "mine" } })).status).toBe(401);
    expect((await call("GET", "/api/runners", { token: "tba_nonsense" })).status).toBe(401);
    const runner = await register();
    expect((await call("DELETE", `/api/runners/${runner.id}`, { token: user.token })).status).toBe(403);
  });
});

describe("runner tokens", () => {
  it("work under /api/runner/… (and the runner comes online), nowhere else", async () => {
    const runner = await register();
    expect((await heartbeat(runner.token)).status).toBe(200);
    const listed = (await call("GET", "/api/runners", { token: await admin() })).body as {
      id: string;
      status: string;
      last_seen_at: string;
    }[];
    expect(listed.find((r) => r.id === runner.id)).toMatchObject({ status: "online", last_seen_at: expect.any(String) });

    const ws = await newWorkspace(await admin());
    for (const path of ["/api/runners", "/api/auth/me", "/api/workspaces", `/api/workspaces/${ws.id}/tasks`]) {
      expect((await call("GET", path, { token: runner.token })).status, path).toBe(401);
    }
  });

  it("are the only credential under /api/runner/…", async () => {
    expect((await heartbeat(undefined)).status).toBe(401);
    expect((await heartbeat(await admin())).status).toBe(401);
    const user = await newUser();
    const key = await call("POST", "/api/auth/api-keys", { token: user.token, json: { name: "k" } });
    expect(key.status).toBe(201);
    expect((await heartbeat(key.body.key)).status).toBe(401);
    expect((await heartbeat("tbn_made_up")).status).toBe(401);
    expect((await call("POST", "/api/runner/claim", { token: user.token, json: { version: "x", sandbox: "none", free: 1 } })).status).toBe(
      401,
    );
  });

  it("stop working at once when the runner is deleted", async () => {
    const runner = await register();
    expect((await heartbeat(runner.token)).status).toBe(200);
    expect((await call("DELETE", `/api/runners/${runner.id}`, { token: await admin() })).status).toBe(204);
    expect((await heartbeat(runner.token)).status).toBe(401);
    const listed = (await call("GET", "/api/runners", { token: await admin() })).body as { id: string }[];
    expect(listed.map((r) => r.id)).not.toContain(runner.id);
    expect((await call("DELETE", `/api/runners/${runner.id}`, { token: await admin() })).status).toBe(404);
  });

  it("get 422 for a bad protocol body, after authentication", async () => {
    const runner = await register();
    const bad = await call("POST", "/api/runner/claim", { token: runner.token, json: { version: "1", sandbox: "docker", free: 1 } });
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body).loc).toEqual(["body", "sandbox"]);
  });
});

describe("the OpenAPI document", () => {
  it("describes the registration and the protocol, the protocol with the runner token only", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    expect(Object.keys(doc.paths["/api/runners"])).toEqual(expect.arrayContaining(["get", "post"]));
    expect(doc.paths["/api/runners/{runner_id}"].delete.operationId).toBe("deleteRunner");
    expect(doc.paths["/api/runner/claim"].post.security).toEqual([{ runnerToken: [] }]);
    expect(doc.components.securitySchemes.runnerToken).toMatchObject({ type: "http", scheme: "bearer" });
  });
});
