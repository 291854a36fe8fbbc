import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, FIXTURE_AGENT, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// The scheduler skips an occurrence whose task waits for unfinished tasks, and says why on the
// schedule. The due time is set with SQL while the server is down (PGlite admits one process).

const ENV = { AGENT_COMMAND: FIXTURE_AGENT, SCHEDULER_INTERVAL_MS: "200" };
let store: Store;
let server: EngineServer;

beforeAll(async () => {
  store = await newStore("dependency-schedules");
  server = await engineServer(store, ENV, "dependency-schedules-setup");
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

describe("a schedule whose task is blocked", () => {
  it("skips the occurrence, records why, and moves on to its next time", async () => {
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const task = await newTask(server.call, token, wsId, { title: "nightly deploy" });
    const blocker = await newTask(server.call, token, wsId, { title: "green build", status: "in_progress" });
    expect((await server.call("POST", `${base}/tasks/${task.id}/dependencies/${blocker.id}`, { token })).status).toBe(200);
    const schedule = await server.call("POST", `${base}/schedules`, {
      token,
      json: { name: "deploy", cron: "0 3 * * *", task_id: task.id, default_instructions: "succeed" },
    });
    expect(schedule.status).toBe(201);

    await server.stop();
    await store.sql(`UPDATE schedules SET next_run_at = now() - interval '1 minute' WHERE workspace_id = $1`, [wsId]);
    server = await engineServer(store, ENV, "dependency-schedules");

    const skipped = await eventually(async () => {
      const response = await server.call("GET", `${base}/schedules/${schedule.body.id}`, { token });
      return response.body.last_error ? response.body : undefined;
    });
    expect(skipped.last_error).toBe(`skipped: #1 “nightly deploy” is blocked by an open task: #2 “green build” (in_progress)`);
    expect(new Date(skipped.next_run_at).getTime()).toBeGreaterThan(Date.now());
    expect((await server.call("GET", `${base}/tasks/${task.id}/runs`, { token })).body).toEqual([]);
  });
});
