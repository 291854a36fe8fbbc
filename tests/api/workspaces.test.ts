import { describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";

describe("workspaces", () => {
  it("creates a workspace owned by its creator and lists the caller's", async () => {
    const user = await newUser();
    const created = await call("POST", "/api/workspaces", { token: user.token, json: { name: "Platform" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Platform",
      auto_start_unblocked: false,
      auto_move_tasks: true,
      auto_start_assigned: true,
      max_concurrent_runs: null,
      question_escalation_minutes: 30,
      slack_channel: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await call("GET", "/api/workspaces", { token: user.token });
    expect(list.body).toEqual([{ ...created.body, role: "owner" }]);
    const members = await call("GET", `/api/workspaces/${created.body.id}/members`, { token: user.token });
    expect(members.body).toEqual([
      { user_id: user.id, username: user.username, display_name: null, role: "owner", created_at: expect.any(String) },
    ]);
  });

  it("answers 404 to non-members, so ids reveal nothing", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const workspace = await newWorkspace(owner.token);
    for (const [method, path] of [
      ["GET", `/api/workspaces/${workspace.id}`],
      ["GET", `/api/workspaces/${workspace.id}/members`],
      ["POST", `/api/workspaces/${workspace.id}/members`],
    ]) {
      const response = await call(method, path, {
        token: stranger.token,
        json: method === "POST" ? { username: stranger.username } : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ detail: "Workspace not found" });
    }
    const unknown = await call("GET", "/api/workspaces/does-not-exist", { token: owner.token });
    expect(unknown.status).toBe(404);
  });

  it("lets owners add members; members cannot add", async () => {
    const owner = await newUser();
    const member = await newUser();
    const third = await newUser();
    const workspace = await newWorkspace(owner.token);
    const added = await call("POST", `/api/workspaces/${workspace.id}/members`, {
      token: owner.token,
      json: { username: member.username },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ user_id: member.id, username: member.username, role: "member" });
    expect((await call("GET", `/api/workspaces/${workspace.id}`, { token: member.token })).body.role).toBe("member");
    const again = await call("POST", `/api/workspaces/${workspace.id}/members`, {
      token: owner.token,
      json: { username: member.username },
    });
    expect(again.status).toBe(409);
    const byMember = await call("POST", `/api/workspaces/${workspace.id}/members`, {
      token: member.token,
      json: { username: third.username },
    });
    expect(byMember.status).toBe(403);
    const nobody = await call("POST", `/api/workspaces/${workspace.id}/members`, {
      token: owner.token,
      json: { username: "no_such_user_x" },
    });
    expect(nobody.status).toBe(404);
    const badRole = await call("POST", `/api/workspaces/${workspace.id}/members`, {
      token: owner.token,
      json: { username: third.username, role: "boss" },
    });
    expect(badRole.status).toBe(422);
    expect(badRole.body.detail[0]).toMatchObject({
      type: "enum",
      loc: ["body", "role"],
      ctx: { expected: "'owner', 'member' or 'viewer'" },
    });
  });

  it("has board automation on by default; only owners turn it off, with a boolean", async () => {
    const owner = await newUser();
    const member = await newUser();
    const workspace = await newWorkspace(owner.token);
    const at = `/api/workspaces/${workspace.id}`;
    expect((await call("GET", at, { token: owner.token })).body.auto_move_tasks).toBe(true);
    await call("POST", `${at}/members`, { token: owner.token, json: { username: member.username } });
    expect((await call("PATCH", at, { token: member.token, json: { auto_move_tasks: false } })).status).toBe(403);
    const bad = await call("PATCH", at, { token: owner.token, json: { auto_move_tasks: "off" } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: "bool_type", loc: ["body", "auto_move_tasks"] });
    const off = await call("PATCH", at, { token: owner.token, json: { auto_move_tasks: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: workspace.id, auto_move_tasks: false, auto_start_unblocked: false, role: "owner" });
    expect((await call("GET", at, { token: member.token })).body.auto_move_tasks).toBe(false);
  });

  it("validates the workspace name", async () => {
    const user = await newUser();
    const response = await call("POST", "/api/workspaces", { token: user.token, json: { name: "x".repeat(201) } });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toMatchObject({ type: "string_too_long", loc: ["body", "name"], ctx: { max_length: 200 } });
  });
});
