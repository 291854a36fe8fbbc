import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError } from "../helpers/api";

const PROJECT_KEYS = ["created_at", "description", "id", "name", "phases", "priority", "status", "tags", "updated_at", "workspace_id"];

let owner: Awaited<ReturnType<typeof newUser>>;
let ws: { id: string };
const base = () => `/api/workspaces/${ws.id}/projects`;

beforeAll(async () => {
  owner = await newUser();
  ws = await newWorkspace(owner.token);
});

const create = (json: unknown) => call("POST", base(), { token: owner.token, json });

describe("POST /api/workspaces/{id}/projects", () => {
  it("creates a project with every default", async () => {
    const res = await create({ name: "Website" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(PROJECT_KEYS);
    expect(res.body).toMatchObject({
      workspace_id: ws.id,
      name: "Website",
      description: "",
      status: "active",
      priority: "p3",
      tags: [],
      phases: [],
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(new Date(res.body.updated_at).toISOString()).toBe(res.body.updated_at);
  });

  it("keeps every given field", async () => {
    const json = { name: "API", description: "d", status: "paused", priority: "p0", tags: ["x", "y"], phases: ["Design", "Build"] };
    const res = await create(json);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(json);
  });

  it.each([
    [{}, ["body", "name"], "missing"],
    [{ name: "" }, ["body", "name"], "string_too_short"],
    [{ name: "x".repeat(201) }, ["body", "name"], "string_too_long"],
    [{ name: 1 }, ["body", "name"], "string_type"],
    [{ name: "n", status: "done" }, ["body", "status"], "enum"],
    [{ name: "n", priority: "p5" }, ["body", "priority"], "enum"],
    [{ name: "n", tags: "a" }, ["body", "tags"], "list_type"],
    [{ name: "n", tags: [1] }, ["body", "tags", 0], "string_type"],
    [{ name: "n", phases: [""] }, ["body", "phases", 0], "string_too_short"],
    [{ name: "n", description: null }, ["body", "description"], "string_type"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const res = await create(json);
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });
});

describe("GET /api/workspaces/{id}/projects", () => {
  it("lists newest first, filters by status, honours limit", async () => {
    const own = await newWorkspace(owner.token);
    const url = `/api/workspaces/${own.id}/projects`;
    const ids: string[] = [];
    for (const [name, status] of [
      ["one", "active"],
      ["two", "archived"],
      ["three", "active"],
    ]) {
      ids.push((await call("POST", url, { token: owner.token, json: { name, status } })).body.id);
    }
    const all = await call("GET", url, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    const active = await call("GET", `${url}?status=active`, { token: owner.token });
    expect(active.body.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[0]]);
    const limited = await call("GET", `${url}?limit=1`, { token: owner.token });
    expect(limited.body.map((p: { id: string }) => p.id)).toEqual([ids[2]]);
  });

  it.each([
    ["limit=0", ["query", "limit"], "greater_than_equal"],
    ["limit=501", ["query", "limit"], "less_than_equal"],
    ["limit=x", ["query", "limit"], "int_parsing"],
    ["status=nope", ["query", "status"], "enum"],
  ])("422 for ?%s", async (qs, loc, type) => {
    const res = await call("GET", `${base()}?${qs}`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });
});

describe("GET, PATCH, DELETE /api/workspaces/{id}/projects/{project_id}", () => {
  it("reads, updates some fields, deletes", async () => {
    const created = (await create({ name: "Edit me", tags: ["a"] })).body;
    const url = `${base()}/${created.id}`;
    const read = await call("GET", url, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const patched = await call("PATCH", url, { token: owner.token, json: { status: "completed", phases: ["One"] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Edit me", tags: ["a"], status: "completed", phases: ["One"], priority: "p3" });
    expect(patched.body.updated_at >= created.updated_at).toBe(true);

    const bad = await call("PATCH", url, { token: owner.token, json: { priority: "urgent" } });
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body)).toEqual({ loc: ["body", "priority"], type: "enum" });
    const emptyName = await call("PATCH", url, { token: owner.token, json: { name: " " } });
    expect(onlyError(emptyName.body)).toEqual({ loc: ["body", "name"], type: "string_too_short" });

    const deleted = await call("DELETE", url, { token: owner.token });
    expect(deleted.status).toBe(204);
    for (const [method, json] of [["GET"], ["PATCH", { name: "x" }], ["DELETE"]] as const) {
      const res = await call(method, url, { token: owner.token, json });
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ detail: "Project not found" });
    }
  });
});

describe("workspace isolation", () => {
  it("a non-member gets 404 on every project route", async () => {
    const project = (await create({ name: "Private" })).body;
    const outsider = await newUser();
    const requests: [string, string, unknown?][] = [
      ["GET", base()],
      ["POST", base(), { name: "x" }],
      ["GET", `${base()}/${project.id}`],
      ["PATCH", `${base()}/${project.id}`, { name: "x" }],
      ["DELETE", `${base()}/${project.id}`],
    ];
    for (const [method, path, json] of requests) {
      const res = await call(method, path, { token: outsider.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: "Workspace not found" });
    }
    const own = await newWorkspace(outsider.token);
    const viaOwn = await call("GET", `/api/workspaces/${own.id}/projects/${project.id}`, { token: outsider.token });
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.body).toEqual({ detail: "Project not found" });
    expect((await call("GET", `${base()}/${project.id}`, { token: owner.token })).body.name).toBe("Private");
  });
});
