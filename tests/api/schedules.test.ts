import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError, uniqueName } from "../helpers/api";
import { createTask } from "../helpers/tasks";

const SCHEDULE_KEYS = [
  "agent_id",
  "created_at",
  "created_by",
  "last_error",
  "cron",
  "default_instructions",
  "enabled",
  "id",
  "last_triggered_at",
  "name",
  "next_run_at",
  "slug",
  "task_id",
  "timezone",
  "updated_at",
  "workspace_id",
].sort();

let owner: Awaited<ReturnType<typeof newUser>>;
let ws: { id: string };
const base = () => `/api/workspaces/${ws.id}/schedules`;

beforeAll(async () => {
  owner = await newUser();
  ws = await newWorkspace(owner.token);
});

const create = (json: unknown) => call("POST", base(), { token: owner.token, json });

describe("POST /api/workspaces/{id}/schedules", () => {
  it("creates a schedule with every default and a slug from the name", async () => {
    const before = Date.now();
    const res = await create({ name: "Nightly Build: Ünïcode!", cron: "0 3 * * *" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(SCHEDULE_KEYS);
    expect(res.body).toMatchObject({
      workspace_id: ws.id,
      name: "Nightly Build: Ünïcode!",
      slug: "nightly-build-unicode",
      cron: "0 3 * * *",
      timezone: "UTC",
      enabled: true,
      default_instructions: "",
      task_id: null,
      last_triggered_at: null,
      last_error: null,
      created_by: owner.id,
    });
    const next = new Date(res.body.next_run_at);
    expect(next.toISOString()).toBe(res.body.next_run_at);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getUTCHours()).toBe(3);
    expect(next.getUTCMinutes()).toBe(0);

    const again = await create({ name: "Nightly build ünïcode", cron: "0 3 * * *" });
    expect(again.status).toBe(201);
    expect(again.body.slug).toBe("nightly-build-unicode-2");
  });

  it("reads the cron expression in the given time zone", async () => {
    const res = await create({ name: uniqueName("tz"), cron: "30 9 * * *", timezone: "Asia/Kolkata" });
    expect(res.status).toBe(201);
    expect(res.body.timezone).toBe("Asia/Kolkata");
    const next = new Date(res.body.next_run_at);
    // 09:30 in India (UTC+05:30, no daylight saving) is 04:00 UTC.
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([4, 0]);
  });

  it("keeps explicit fields; next_run_at is null while disabled; a taken slug is 409", async () => {
    const task = await createTask(owner.token, ws.id);
    const json = {
      name: "Weekly",
      slug: uniqueName("weekly").replace("_", "-"),
      cron: "0 9 * * 1",
      enabled: false,
      default_instructions: "Do it",
      task_id: task.id,
    };
    const res = await create(json);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...json, next_run_at: null });
    const dup = await create({ name: "Other", slug: json.slug, cron: "* * * * *" });
    expect(dup.status).toBe(409);
    expect(typeof dup.body.detail).toBe("string");
  });

  it("404 for a task that is not in the workspace", async () => {
    const res = await create({ name: "x", cron: "* * * * *", task_id: "no-such-task" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Task not found" });
  });

  it.each([
    [{ cron: "* * * * *" }, ["body", "name"], "missing"],
    [{ name: "n" }, ["body", "cron"], "missing"],
    [{ name: "", cron: "* * * * *" }, ["body", "name"], "string_too_short"],
    [{ name: "n", cron: "not a cron" }, ["body", "cron"], "value_error"],
    [{ name: "n", cron: "61 * * * *" }, ["body", "cron"], "value_error"],
    [{ name: "n", cron: "2030-01-01T00:00:00" }, ["body", "cron"], "value_error"],
    [{ name: "n", cron: "* * * * *", timezone: "Mars/Olympus_Mons" }, ["body", "timezone"], "value_error"],
    [{ name: "n", cron: "* * * * *", slug: "Not A Slug" }, ["body", "slug"], "string_pattern_mismatch"],
    [{ name: "n", cron: "* * * * *", enabled: "maybe" }, ["body", "enabled"], "bool_type"],
    [{ name: "n", cron: "* * * * *", default_instructions: 3 }, ["body", "default_instructions"], "string_type"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const res = await create(json);
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });
});

describe("GET /api/workspaces/{id}/schedules", () => {
  it("lists oldest first and honours limit", async () => {
    const own = await newWorkspace(owner.token);
    const url = `/api/workspaces/${own.id}/schedules`;
    const a = (await call("POST", url, { token: owner.token, json: { name: "a", cron: "* * * * *" } })).body;
    const b = (await call("POST", url, { token: owner.token, json: { name: "b", cron: "* * * * *" } })).body;
    const all = await call("GET", url, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([a, b]);
    const limited = await call("GET", `${url}?limit=1`, { token: owner.token });
    expect(limited.body).toEqual([a]);
    const bad = await call("GET", `${url}?limit=0`, { token: owner.token });
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body)).toEqual({ loc: ["query", "limit"], type: "greater_than_equal" });
  });
});

describe("GET, PATCH, DELETE /api/workspaces/{id}/schedules/{ref}", () => {
  it("finds a schedule by id or slug, with its next three run times", async () => {
    const created = (await create({ name: uniqueName("Hourly"), cron: "0 * * * *" })).body;
    const byId = await call("GET", `${base()}/${created.id}`, { token: owner.token });
    expect(byId.status).toBe(200);
    const bySlug = await call("GET", `${base()}/${created.slug}`, { token: owner.token });
    expect(bySlug.body).toEqual(byId.body);
    const { next_runs, ...record } = byId.body;
    expect(record).toEqual(created);
    expect(next_runs).toHaveLength(3);
    expect(next_runs[0]).toBe(created.next_run_at);
    const times = next_runs.map((t: string) => new Date(t).getTime());
    expect(times[1] - times[0]).toBe(3_600_000);
    expect(times[2] - times[1]).toBe(3_600_000);
  });

  it("updates fields and keeps next_run_at current", async () => {
    const created = (await create({ name: uniqueName("Edit"), cron: "0 * * * *" })).body;
    const url = `${base()}/${created.slug}`;
    const off = await call("PATCH", url, { token: owner.token, json: { enabled: false, default_instructions: "New" } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, next_run_at: null, default_instructions: "New", cron: "0 * * * *" });
    expect((await call("GET", url, { token: owner.token })).body.next_runs).toEqual([]);

    const on = await call("PATCH", url, { token: owner.token, json: { enabled: true, cron: "15 6 * * *" } });
    expect(on.status).toBe(200);
    const next = new Date(on.body.next_run_at);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([6, 15]);

    const bad = await call("PATCH", url, { token: owner.token, json: { cron: "every day" } });
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body)).toEqual({ loc: ["body", "cron"], type: "value_error" });
    const badTz = await call("PATCH", url, { token: owner.token, json: { timezone: "Nowhere" } });
    expect(onlyError(badTz.body)).toEqual({ loc: ["body", "timezone"], type: "value_error" });

    const other = (await create({ name: uniqueName("Other"), cron: "0 * * * *" })).body;
    const taken = await call("PATCH", url, { token: owner.token, json: { slug: other.slug } });
    expect(taken.status).toBe(409);
    const noTask = await call("PATCH", url, { token: owner.token, json: { task_id: "missing" } });
    expect(noTask.status).toBe(404);
    expect(noTask.body).toEqual({ detail: "Task not found" });

    const renamed = await call("PATCH", url, { token: owner.token, json: { slug: `${created.slug}-renamed` } });
    expect(renamed.status).toBe(200);
    expect((await call("GET", `${base()}/${created.slug}-renamed`, { token: owner.token })).body.id).toBe(created.id);
  });

  it("deletes with 204; unknown refs are 404 on every schedule route", async () => {
    const created = (await create({ name: uniqueName("Gone"), cron: "0 * * * *" })).body;
    expect((await call("DELETE", `${base()}/${created.slug}`, { token: owner.token })).status).toBe(204);
    const requests: [string, string, unknown?][] = [
      ["GET", `${base()}/${created.id}`],
      ["PATCH", `${base()}/${created.id}`, { name: "x" }],
      ["DELETE", `${base()}/${created.id}`],
      ["GET", `${base()}/${created.slug}/default-instructions`],
      ["POST", `${base()}/${created.slug}/trigger`],
    ];
    for (const [method, path, json] of requests) {
      const res = await call(method, path, { token: owner.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: "Schedule not found" });
    }
  });
});

describe("GET /api/workspaces/{id}/schedules/{ref}/default-instructions", () => {
  it("returns the schedule's default instructions (empty by default)", async () => {
    const withText = (await create({ name: uniqueName("Ins"), cron: "0 * * * *", default_instructions: "Run the report" })).body;
    const res = await call("GET", `${base()}/${withText.slug}/default-instructions`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ instructions: "Run the report" });
    const plain = (await create({ name: uniqueName("Ins"), cron: "0 * * * *" })).body;
    expect((await call("GET", `${base()}/${plain.id}/default-instructions`, { token: owner.token })).body).toEqual({ instructions: "" });
  });
});

describe("POST /api/workspaces/{id}/schedules/{ref}/trigger", () => {
  it("starts a run on a new todo task when the schedule has none, and records the trigger time", async () => {
    const name = uniqueName("Report");
    const schedule = (await create({ name, cron: "0 * * * *", default_instructions: "Write it" })).body;
    const res = await call("POST", `${base()}/${schedule.slug}/trigger`, { token: owner.token });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual([
      "attempt_number",
      "execution_id",
      "schedule_id",
      "task_id",
      "task_number",
      "task_run_id",
      "task_title",
    ]);
    expect(res.body.schedule_id).toBe(schedule.id);
    for (const key of ["task_id", "task_run_id", "execution_id"]) expect(typeof res.body[key]).toBe("string");
    // What a person is shown instead of ids: the task by its number and title, and the attempt.
    expect(res.body).toMatchObject({ task_title: name, attempt_number: 1 });
    expect(Number.isInteger(res.body.task_number)).toBe(true);
    // Like a cron occurrence: the new task's description is the schedule's default instructions.
    const made = await call("GET", `/api/workspaces/${ws.id}/tasks/${res.body.task_id}`, { token: owner.token });
    // Made in To do; the run's start moved it to In progress (board automation, docs/board-automation.md).
    expect(made.body).toMatchObject({ title: name, description: "Write it", status: "in_progress" });

    // The new task is titled after the schedule (seen through a question raised on it).
    const question = await call("POST", `/api/workspaces/${ws.id}/questions`, {
      token: owner.token,
      json: { content: "?", task_id: res.body.task_id },
    });
    expect(question.status).toBe(201);
    expect(question.body.task_title).toBe(name);

    const after = (await call("GET", `${base()}/${schedule.id}`, { token: owner.token })).body;
    expect(new Date(after.last_triggered_at).toISOString()).toBe(after.last_triggered_at);
    expect(after.task_id).toBeNull();

    // Without a task of its own, each trigger makes a fresh task, so it never collides with the last run.
    const second = await call("POST", `${base()}/${schedule.id}/trigger`, { token: owner.token });
    expect(second.status).toBe(202);
    expect(second.body.task_id).not.toBe(res.body.task_id);

    // Both new tasks sit at the end of In progress (made in To do, moved as their runs started), in the order they were made.
    const started = await call("GET", `/api/workspaces/${ws.id}/board/column/in_progress?limit=100`, { token: owner.token });
    expect(started.body.items.slice(-2).map((task: { id: string; title: string }) => [task.id, task.title])).toEqual([
      [res.body.task_id, name],
      [second.body.task_id, name],
    ]);
  });

  it("runs on the schedule's own task; 409 while that task has an active execution", async () => {
    const task = await createTask(owner.token, ws.id);
    const run = await call("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, { token: owner.token });
    expect(run.status).toBe(202); // leaves an active execution on the task
    const schedule = (await create({ name: uniqueName("Own"), cron: "0 * * * *", task_id: task.id })).body;
    const res = await call("POST", `${base()}/${schedule.id}/trigger`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(typeof res.body.detail).toBe("string");
    expect((await call("GET", `${base()}/${schedule.id}`, { token: owner.token })).body.last_triggered_at).toBeNull();
  });
});

describe("workspace isolation", () => {
  it("a non-member gets 404 on every schedule route", async () => {
    const schedule = (await create({ name: uniqueName("Private"), cron: "0 * * * *" })).body;
    const outsider = await newUser();
    const requests: [string, string, unknown?][] = [
      ["GET", base()],
      ["POST", base(), { name: "x", cron: "* * * * *" }],
      ["GET", `${base()}/${schedule.id}`],
      ["PATCH", `${base()}/${schedule.id}`, { name: "x" }],
      ["DELETE", `${base()}/${schedule.id}`],
      ["GET", `${base()}/${schedule.slug}/default-instructions`],
      ["POST", `${base()}/${schedule.slug}/trigger`],
    ];
    for (const [method, path, json] of requests) {
      const res = await call(method, path, { token: outsider.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: "Workspace not found" });
    }
    const own = await newWorkspace(outsider.token);
    const viaOwn = await call("POST", `/api/workspaces/${own.id}/schedules/${schedule.slug}/trigger`, { token: outsider.token });
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.body).toEqual({ detail: "Schedule not found" });
    const mine = await call("POST", `/api/workspaces/${own.id}/schedules`, {
      token: outsider.token,
      json: { name: "x", cron: "* * * * *", task_id: (await createTask(owner.token, ws.id)).id },
    });
    expect(mine.status).toBe(404);
    expect(mine.body).toEqual({ detail: "Task not found" });
  });
});
