import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// The inbox and the preferences of notifications (docs/notifications.md) on the shared server:
// paging newest first, read marks (others' ids ignored), credentials refused, preferences'
// defaults, round trip and 422s, and the deliveries list. Who hears what: notifications.test.ts.

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let member: User;

const inbox = async (user: User, query = "") => {
  const response = await call("GET", `/api/me/notifications${query}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: { id: string; body: string }[]; total: number; unread: number };
};

beforeAll(async () => {
  [owner, member] = await Promise.all([newUser(), newUser()]);
  // One notification each: the owner asks on an unassigned task; the member is mentioned.
  const ws = (await newWorkspace(owner.token)).id;
  await call("POST", `/api/workspaces/${ws}/members`, { token: owner.token, json: { username: member.username } });
  const task = await createTask(owner.token, ws);
  await call("POST", `/api/workspaces/${ws}/questions`, { token: owner.token, json: { task_id: task.id, content: "Ready?" } });
  await call("POST", `/api/workspaces/${ws}/tasks/${task.id}/comments`, { token: owner.token, json: { body: `@${member.username} look` } });
});

describe("the inbox", () => {
  it("pages newest first, counts the unread, and marks some or all read (others' ids are ignored)", async () => {
    const reader = await newUser();
    const own = (await newWorkspace(reader.token)).id;
    // The reader owns `own` and its tasks have no assignee: the reader hears its questions.
    for (let i = 0; i < 3; i++) {
      const task = await createTask(reader.token, own, { title: `inbox ${i}` });
      const asked = await call("POST", `/api/workspaces/${own}/questions`, {
        token: reader.token,
        json: { task_id: task.id, content: task.title },
      });
      expect(asked.status).toBe(201);
    }
    const all = await inbox(reader);
    expect(all).toMatchObject({ total: 3, unread: 3, limit: 20, offset: 0 });
    expect(all.items.map((n) => n.body)).toEqual(["inbox 2", "inbox 1", "inbox 0"]);
    const second = await inbox(reader, "?limit=1&offset=1");
    expect(second.items.map((n) => n.body)).toEqual(["inbox 1"]);

    const others = await inbox(owner);
    const marked = await call("POST", "/api/me/notifications/read", {
      token: reader.token,
      json: { ids: [all.items[0].id, others.items[0].id] },
    });
    expect(marked.body).toEqual({ marked: 1, unread: 2 });
    expect((await inbox(owner)).unread).toBe(others.unread);
    const unread = await inbox(reader, "?unread=true");
    expect(unread).toMatchObject({ total: 2, unread: 2 });
    expect(unread.items.map((n) => n.body)).toEqual(["inbox 1", "inbox 0"]);
    expect((await call("POST", "/api/me/notifications/read", { token: reader.token, json: { all: true } })).body).toEqual({
      marked: 2,
      unread: 0,
    });
    expect((await inbox(reader, "?unread=true")).items).toEqual([]);
  });

  it("refuses a read mark with both ids and all, or neither, and a bad page in 422", async () => {
    for (const json of [{}, { ids: ["x"], all: true }, { all: false }, { ids: [] }]) {
      const refused = await call("POST", "/api/me/notifications/read", { token: member.token, json });
      expect(refused.status, JSON.stringify(json)).toBe(422);
    }
    expect(onlyError((await call("GET", "/api/me/notifications?limit=0", { token: member.token })).body)).toEqual({
      loc: ["query", "limit"],
      type: expect.any(String),
    });
    expect((await call("GET", "/api/me/notifications?unread=maybe", { token: member.token })).status).toBe(422);
  });

  it("refuses no credential, a wrong one and a deleted API key", async () => {
    const user = await newUser();
    const key = await call("POST", "/api/auth/api-keys", { token: user.token, json: { name: "inbox" } });
    expect((await call("GET", "/api/me/notifications", { token: key.body.key })).status).toBe(200);
    expect((await call("DELETE", `/api/auth/api-keys/${key.body.id}`, { token: user.token })).status).toBe(204);
    for (const path of ["/api/me/notifications", "/api/me/notification-settings", "/api/me/notification-deliveries"]) {
      expect((await call("GET", path)).status).toBe(401);
      expect((await call("GET", path, { token: "tbk_not-a-key" })).status).toBe(401);
      expect((await call("GET", path, { token: key.body.key })).status).toBe(401);
    }
    expect((await call("POST", "/api/me/notifications/read", { json: { all: true } })).status).toBe(401);
  });
});

describe("preferences", () => {
  it("start with everything on, round-trip, and a kind turned off makes no notification", async () => {
    const person = await newUser();
    const own = (await newWorkspace(person.token)).id;
    const read = await call("GET", "/api/me/notification-settings", { token: person.token });
    expect(read.body).toMatchObject({ time_zone: "UTC", quiet_hours: null, digest: false, configured_channels: ["in_app", "push"] });
    expect(read.body.kinds.question).toEqual({ in_app: true, push: true, email: true, slack: true });
    const settings = { ...read.body, configured_channels: undefined };
    const quiet = {
      ...settings,
      kinds: { ...settings.kinds, question: { in_app: false, push: false, email: false, slack: false } },
      time_zone: "Europe/Paris",
      quiet_hours: { start: "22:00", end: "07:00" },
      digest: true,
    };
    const saved = await call("PUT", "/api/me/notification-settings", { token: person.token, json: quiet });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await call("GET", "/api/me/notification-settings", { token: person.token })).body).toEqual({
      ...quiet,
      configured_channels: ["in_app", "push"],
    });
    const task = await createTask(person.token, own);
    expect(
      (await call("POST", `/api/workspaces/${own}/questions`, { token: person.token, json: { task_id: task.id, content: "muted?" } }))
        .status,
    ).toBe(201);
    expect((await inbox(person)).items).toEqual([]);
  });

  it("refuses an unknown time zone, a bad time, equal quiet hours and a missing kind in 422", async () => {
    const base = (await call("GET", "/api/me/notification-settings", { token: member.token })).body;
    delete base.configured_channels;
    const cases: [unknown, unknown[]][] = [
      [{ ...base, time_zone: "Mars/Olympus" }, ["body", "time_zone"]],
      [{ ...base, quiet_hours: { start: "25:00", end: "07:00" } }, ["body", "quiet_hours", "start"]],
      [{ ...base, quiet_hours: { start: "07:00", end: "07:00" } }, ["body", "quiet_hours", "end"]],
      [{ ...base, kinds: { ...base.kinds, mention: undefined } }, ["body", "kinds", "mention"]],
    ];
    for (const [json, loc] of cases) {
      const refused = await call("PUT", "/api/me/notification-settings", { token: member.token, json });
      expect(refused.status, JSON.stringify(json)).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(loc);
    }
  });

  it("lists the deliveries: the inbox's, sent on the first attempt", async () => {
    const deliveries = await call("GET", "/api/me/notification-deliveries", { token: member.token });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.length).toBeGreaterThan(0);
    // Push is configured on every server (docs/notifications.md, "Browser push"): its deliveries are listed too.
    expect(deliveries.body.find((delivery: { channel: string }) => delivery.channel === "in_app")).toMatchObject({
      channel: "in_app",
      status: "sent",
      attempts: 1,
      last_error: null,
      sent_at: expect.any(String),
    });
  });
});
