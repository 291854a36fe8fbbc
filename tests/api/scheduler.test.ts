import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  databaseKind,
  engineServer,
  eventually,
  FIXTURE_AGENT,
  newStore,
  newTask,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// The scheduler inside the server. Due times are set in the past with SQL while the servers are
// down (PGlite admits one process), then the servers start: on PostgreSQL two instances race for
// every due occurrence; on PGlite one instance is all there can be.

const ENV = { AGENT_COMMAND: FIXTURE_AGENT, SCHEDULER_INTERVAL_MS: "200" };
let store: Store;
let servers: EngineServer[] = [];

beforeAll(async () => {
  store = await newStore("scheduler");
  servers = [await engineServer(store, ENV, "scheduler-setup")];
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await store?.drop();
});

async function restart(instances: number) {
  await Promise.all(servers.map((s) => s.stop()));
  servers = await Promise.all(Array.from({ length: instances }, (_, i) => engineServer(store, ENV, `scheduler-${i}`)));
  return servers[0];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));

/** Every task on the workspace's board (first 100 of each column). */
async function boardTasks(server: EngineServer, base: string, token: string) {
  const board = await server.call("GET", `${base}/board?limit=100`, { token });
  return (board.body.columns as { items: { id: string; title: string; status: string }[] }[]).flatMap((column) => column.items);
}

describe("scheduler", () => {
  it("fires each due occurrence exactly once across instances, also after downtime, with trigger schedule", async () => {
    let server = servers[0];
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const tasks = [];
    const schedules = [];
    for (let i = 0; i < 4; i++) {
      const task = await newTask(server.call, token, wsId, { title: `nightly ${i}` });
      tasks.push(task);
      const created = await server.call("POST", `${base}/schedules`, {
        token,
        json: { name: `nightly ${i}`, cron: "0 3 * * *", timezone: "Europe/Berlin", task_id: task.id, default_instructions: "succeed" },
      });
      expect(created.status).toBe(201);
      schedules.push(created.body);
    }
    // Missed by hours (many hourly periods would have passed for an hourly cron): still one run.
    await Promise.all(servers.map((s) => s.stop()));
    await store.sql(`UPDATE schedules SET next_run_at = now() - interval '5 hours' WHERE workspace_id = $1`, [wsId]);

    server = await restart(databaseKind() === "postgresql" ? 2 : 1);
    // The fixture succeeds only on the instructions "succeed": the schedule's default instructions were used.
    for (const task of tasks) {
      const runs = await eventually(async () => {
        const r = await server.call("GET", `${base}/tasks/${task.id}/runs`, { token });
        return r.body.length > 0 && r.body.every((run: { status: string }) => run.status === "succeeded") ? r.body : undefined;
      });
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: "schedule", attempt_number: 1 });
    }
    await settle();
    for (const [i, task] of tasks.entries()) {
      const runs = await server.call("GET", `${base}/tasks/${task.id}/runs`, { token });
      expect(runs.body).toHaveLength(1);
      const schedule = (await server.call("GET", `${base}/schedules/${schedules[i].id}`, { token })).body;
      expect(new Date(schedule.next_run_at).getTime()).toBeGreaterThan(Date.now());
      expect(schedule.next_run_at).toBe(schedule.next_runs[0]);
      expect(schedule.last_triggered_at).not.toBeNull();
    }
    // Two or three server starts with their runners: past 60 s on a slow, loaded machine (seen in a
    // clean run beside the browser tests).
  }, 180_000);

  it("makes a new todo task titled after a schedule without one, and leaves disabled schedules alone", async () => {
    let server = servers[0];
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const enabled = await server.call("POST", `${base}/schedules`, {
      token,
      json: { name: "weekly report", cron: "0 9 * * 1", default_instructions: "succeed" },
    });
    const disabled = await server.call("POST", `${base}/schedules`, { token, json: { name: "paused", cron: "0 9 * * 1", enabled: false } });
    expect([enabled.status, disabled.status]).toEqual([201, 201]);
    await Promise.all(servers.map((s) => s.stop()));
    await store.sql(`UPDATE schedules SET next_run_at = now() - interval '1 minute' WHERE workspace_id = $1`, [wsId]);

    server = await restart(databaseKind() === "postgresql" ? 2 : 1);
    // Made in To do; its run's start moves it to In progress (docs/board-automation.md): look in every column.
    const todo = await eventually(async () => {
      const items = await boardTasks(server, base, token);
      return items.length > 0 ? items : undefined;
    });
    await settle();
    const again = await boardTasks(server, base, token);
    expect(again).toHaveLength(1);
    expect(again[0].status).toBe("in_progress");
    expect(todo[0].title).toBe("weekly report");
    // The board's cards carry no description: the task does.
    expect((await server.call("GET", `${base}/tasks/${todo[0].id}`, { token })).body.description).toBe("succeed");
    const runs = await eventually(async () => {
      const r = await server.call("GET", `${base}/tasks/${todo[0].id}/runs`, { token });
      return r.body[0]?.status === "succeeded" ? r.body : undefined;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe("schedule");
    const paused = (await server.call("GET", `${base}/schedules/${disabled.body.id}`, { token })).body;
    expect(paused.last_triggered_at).toBeNull();
  });

  it("fires each due schedule on its own: those whose creator was disabled or left are recorded as failed, the other runs, all move on", async () => {
    let server = servers[0];
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    // A member creates a schedule (runs act as its creator), and is disabled afterwards.
    const username = `creator-${Date.now()}`;
    const password = "creator-password";
    const member = await server.call("POST", "/api/users", { token, json: { username, password, is_admin: false } });
    expect(member.status).toBe(201);
    expect((await server.call("POST", `${base}/members`, { token, json: { username, role: "member" } })).status).toBe(201);
    const memberToken = (await server.call("POST", "/api/auth/login", { json: { username, password } })).body.access_token;
    const theirs = await server.call("POST", `${base}/schedules`, {
      token: memberToken,
      json: { name: "theirs", cron: "0 3 * * *", default_instructions: "succeed" },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.created_by).toBe(member.body.id);
    // Another member creates one and then leaves the workspace.
    const leaverName = `leaver-${Date.now()}`;
    const leaver = await server.call("POST", "/api/users", { token, json: { username: leaverName, password, is_admin: false } });
    expect((await server.call("POST", `${base}/members`, { token, json: { username: leaverName, role: "member" } })).status).toBe(201);
    const leaverToken = (await server.call("POST", "/api/auth/login", { json: { username: leaverName, password } })).body.access_token;
    const left = await server.call("POST", `${base}/schedules`, {
      token: leaverToken,
      json: { name: "left", cron: "0 3 * * *", default_instructions: "succeed" },
    });
    expect(left.status).toBe(201);
    expect((await server.call("DELETE", `${base}/members/${leaver.body.id}`, { token })).status).toBe(204);
    // Blank default instructions: the run gets the task's own title ("succeed").
    const ownTask = await newTask(server.call, token, wsId, { title: "succeed" });
    const mine = await server.call("POST", `${base}/schedules`, { token, json: { name: "mine", cron: "0 3 * * *", task_id: ownTask.id } });
    expect(mine.status).toBe(201);
    expect((await server.call("PATCH", `/api/users/${member.body.id}`, { token, json: { disabled: true } })).status).toBe(200);

    await Promise.all(servers.map((s) => s.stop()));
    await store.sql(`UPDATE schedules SET next_run_at = now() - interval '1 minute' WHERE workspace_id = $1`, [wsId]);
    server = await restart(databaseKind() === "postgresql" ? 2 : 1);

    const runs = await eventually(async () => {
      const r = await server.call("GET", `${base}/tasks/${ownTask.id}/runs`, { token });
      return r.body[0]?.status === "succeeded" ? r.body : undefined;
    });
    expect(runs[0].trigger).toBe("schedule");
    const failed = await eventually(async () => {
      const r = await server.call("GET", `${base}/schedules/${theirs.body.id}`, { token });
      return r.body.last_error ? r.body : undefined;
    });
    expect(failed.last_error).toBe(`not run: ${username}, who created this schedule, is disabled`);
    expect(new Date(failed.next_run_at).getTime()).toBeGreaterThan(Date.now());
    expect(failed.last_triggered_at).not.toBeNull();
    const orphaned = await eventually(async () => {
      const r = await server.call("GET", `${base}/schedules/${left.body.id}`, { token });
      return r.body.last_error ? r.body : undefined;
    });
    expect(orphaned.last_error).toBe(`not run: ${leaverName}, who created this schedule, is no longer a member of this workspace`);
    expect(new Date(orphaned.next_run_at).getTime()).toBeGreaterThan(Date.now());
    const succeeded = (await server.call("GET", `${base}/schedules/${mine.body.id}`, { token })).body;
    expect(succeeded.last_error).toBeNull();
    expect(new Date(succeeded.next_run_at).getTime()).toBeGreaterThan(Date.now());
    // The refused occurrence made no task, in any column.
    const titles = (await boardTasks(server, base, token)).map((t) => t.title);
    expect(titles).not.toContain("theirs");
    expect(titles).not.toContain("left");
  });

  it("gives Trigger now and cron the same rules: blank default instructions run the task's own title", async () => {
    const server = servers[0];
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const task = await newTask(server.call, token, wsId, { title: "succeed" });
    const schedule = await server.call("POST", `${base}/schedules`, {
      token,
      json: { name: "blank", cron: "0 0 1 1 *", task_id: task.id },
    });
    const triggered = await server.call("POST", `${base}/schedules/${schedule.body.id}/trigger`, { token });
    expect(triggered.status).toBe(202);
    const runs = await eventually(async () => {
      const r = await server.call("GET", `${base}/tasks/${task.id}/runs`, { token });
      return r.body[0] && r.body[0].status !== "queued" && r.body[0].status !== "running" ? r.body : undefined;
    });
    expect(runs[0]).toMatchObject({ status: "succeeded", trigger: "manual" });
  });

  it("starts a run at once with trigger manual when a schedule is triggered through the API", async () => {
    const server = servers[0];
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const task = await newTask(server.call, token, wsId, { title: "on demand" });
    const schedule = await server.call("POST", `${base}/schedules`, {
      token,
      json: { name: "on demand", cron: "0 0 1 1 *", task_id: task.id, default_instructions: "succeed" },
    });
    const triggered = await server.call("POST", `${base}/schedules/${schedule.body.id}/trigger`, { token });
    expect(triggered.status).toBe(202);
    const runs = await eventually(async () => {
      const r = await server.call("GET", `${base}/tasks/${task.id}/runs`, { token });
      return r.body[0]?.status === "succeeded" ? r.body : undefined;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe("manual");
  });
});
