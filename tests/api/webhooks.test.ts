import { describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError } from "../helpers/api";

// Managing webhook endpoints: owners only, the secret never read back, 422 in Pydantic's shape.
// Delivery itself is in webhook-delivery.test.ts (servers of its own, with a local receiver).

const URL_OK = "https://hooks.example.com/taskboard";

async function ownerWithWorkspace() {
  const owner = await newUser();
  const ws = await newWorkspace(owner.token);
  return { owner, ws, base: `/api/workspaces/${ws.id}/webhooks` };
}

describe("webhook endpoints", () => {
  it("are created, listed, read, changed and deleted by an owner; the secret is never returned", async () => {
    const { owner, base } = await ownerWithWorkspace();
    const created = await call("POST", base, {
      token: owner.token,
      json: { url: URL_OK, events: ["task.created", "task.moved"], description: "CI" },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body).toMatchObject({
      url: URL_OK,
      events: ["task.created", "task.moved"],
      enabled: true,
      disabled_reason: null,
      description: "CI",
    });
    expect(created.body.secret_hint).toBe(`…${created.body.secret.slice(-4)}`);
    const id = created.body.id;

    const list = await call("GET", base, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((hook: { id: string }) => hook.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

    const one = await call("GET", `${base}/${id}`, { token: owner.token });
    expect(one.body).not.toHaveProperty("secret");

    const chosen = await call("POST", base, {
      token: owner.token,
      json: { url: "http://hooks.example.com/b", events: ["*", "task.created"], secret: "s3cret-of-my-own-choice" },
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body).not.toHaveProperty("secret");
    expect(chosen.body.events).toEqual(["*"]);
    expect(chosen.body.secret_hint).toBe("…oice");

    const changed = await call("PATCH", `${base}/${id}`, {
      token: owner.token,
      json: { enabled: false, events: ["question.created"], secret: "a-new-secret-1234" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ enabled: false, events: ["question.created"], secret_hint: "…1234" });

    expect((await call("DELETE", `${base}/${id}`, { token: owner.token })).status).toBe(204);
    expect((await call("GET", `${base}/${id}`, { token: owner.token })).status).toBe(404);
    expect((await call("DELETE", `${base}/${id}`, { token: owner.token })).status).toBe(404);
    expect((await call("GET", `${base}/${id}/deliveries`, { token: owner.token })).status).toBe(404);
  });

  it("answer 422 for unknown event types, bad URLs, short secrets and missing fields", async () => {
    const { owner, base } = await ownerWithWorkspace();
    const bad: [unknown, (string | number)[], string][] = [
      [{ url: URL_OK, events: ["task.exploded"] }, ["body", "events", 0], "enum"],
      [{ url: URL_OK, events: [] }, ["body", "events"], "too_short"],
      [{ url: "ftp://example.com/x", events: ["*"] }, ["body", "url"], "value_error"],
      [{ url: "not a url", events: ["*"] }, ["body", "url"], "value_error"],
      [{ url: URL_OK, events: ["*"], secret: "short" }, ["body", "secret"], "string_too_short"],
      [{ events: ["*"] }, ["body", "url"], "missing"],
      [{ url: URL_OK }, ["body", "events"], "missing"],
    ];
    for (const [json, loc] of bad) {
      const response = await call("POST", base, { token: owner.token, json });
      expect(response.status, JSON.stringify(json)).toBe(422);
      expect(onlyError(response.body).loc, JSON.stringify(json)).toEqual(loc);
    }
    const created = await call("POST", base, { token: owner.token, json: { url: URL_OK, events: ["*"] } });
    const patch = await call("PATCH", `${base}/${created.body.id}`, { token: owner.token, json: { events: ["nope"] } });
    expect(patch.status).toBe(422);
    const page = await call("GET", `${base}/${created.body.id}/deliveries?limit=0`, { token: owner.token });
    expect(page.status).toBe(422);
    expect(onlyError(page.body).loc).toEqual(["query", "limit"]);
    // Nothing was made by the refused requests.
    expect((await call("GET", base, { token: owner.token })).body).toHaveLength(1);
  });

  it("are refused without credentials (401), to members (403) and outside one's workspaces (404)", async () => {
    const { owner, ws, base } = await ownerWithWorkspace();
    const created = await call("POST", base, { token: owner.token, json: { url: URL_OK, events: ["*"] } });
    const id = created.body.id;
    const member = await newUser();
    expect(
      (await call("POST", `/api/workspaces/${ws.id}/members`, { token: owner.token, json: { username: member.username } })).status,
    ).toBe(201);
    const stranger = await newUser();
    const routes: [string, string, unknown?][] = [
      ["GET", base],
      ["POST", base, { url: URL_OK, events: ["*"] }],
      ["GET", `${base}/${id}`],
      ["PATCH", `${base}/${id}`, { enabled: false }],
      ["DELETE", `${base}/${id}`],
      ["GET", `${base}/${id}/deliveries`],
      ["POST", `${base}/${id}/deliveries/0190b8f0-0000-7000-8000-000000000001/redeliver`],
    ];
    for (const [method, path, json] of routes) {
      expect((await call(method, path, { json })).status, `${method} ${path} anonymous`).toBe(401);
      expect((await call(method, path, { token: "tb_not-a-token", json })).status, `${method} ${path} bad token`).toBe(401);
      expect((await call(method, path, { token: member.token, json })).status, `${method} ${path} member`).toBe(403);
      expect((await call(method, path, { token: stranger.token, json })).status, `${method} ${path} stranger`).toBe(404);
    }
    // Another owner's webhook id through one's own workspace: 404, and it is untouched.
    const other = await ownerWithWorkspace();
    const foreign = `${other.base}/${id}`;
    expect((await call("GET", foreign, { token: other.owner.token })).status).toBe(404);
    expect((await call("DELETE", foreign, { token: other.owner.token })).status).toBe(404);
    expect((await call("GET", `${base}/${id}`, { token: owner.token })).body.enabled).toBe(true);
  });

  it("redeliver answers 404 for an unknown delivery; a new endpoint has no deliveries", async () => {
    const { owner, base } = await ownerWithWorkspace();
    const created = await call("POST", base, { token: owner.token, json: { url: URL_OK, events: ["*"], enabled: false } });
    const missing = await call("POST", `${base}/${created.body.id}/deliveries/0190b8f0-0000-7000-8000-000000000001/redeliver`, {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
    const page = await call("GET", `${base}/${created.body.id}/deliveries`, { token: owner.token });
    expect(page.body).toEqual({ items: [], has_more: false });
  });
});
