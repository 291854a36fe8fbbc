import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  processAlive,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// The server is killed (SIGKILL) in the middle of a run and started again on the same data.

const ENV = { AGENT_COMMAND: FIXTURE_AGENT, AGENT_MAX_CONCURRENT: "1", AGENT_KILL_GRACE_SECONDS: "1", AGENT_LOG_FLUSH_MS: "100" };
let store: Store;
let server: EngineServer;

beforeAll(async () => {
  store = await newStore("recovery");
  server = await engineServer(store, ENV, "recovery-1");
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

describe("restart after a crash", () => {
  it("finishes the interrupted run as failed, stops its agent, runs what was queued and keeps what had finished", async () => {
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const run = async (taskId: string, instructions: string) =>
      (await server.call("POST", `${base}/tasks/${taskId}/runs`, { token, json: { instructions } })).body;
    const [a, b, c] = [
      await newTask(server.call, token, wsId, { title: "finished before" }),
      await newTask(server.call, token, wsId, { title: "interrupted" }),
      await newTask(server.call, token, wsId, { title: "queued" }),
    ];
    const done = await finished(server.call, token, wsId, (await run(a.id, "succeed")).id);
    expect(done.status).toBe("succeeded");
    const interrupted = await run(b.id, "sleep 60");
    expect(interrupted.status).toBe("running");
    const queued = await run(c.id, "succeed");
    expect(queued.status).toBe("queued");
    // Some output reaches the log before the crash.
    await eventually(async () => {
      const e = await server.call("GET", `${base}/executions/${interrupted.id}`, { token });
      return e.body.line_count >= 2 ? true : undefined; // the prompt and a line
    });

    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));
    // The agent lives in its own process group, so it outlived the server.
    expect(processAlive(interrupted.runner_pid)).toBe(true);

    server = await engineServer(store, ENV, "recovery-2");
    const after = await server.call("GET", `${base}/executions/${interrupted.id}`, { token });
    expect(after.body).toMatchObject({ status: "failed", error_message: "interrupted by server restart", line_count: 2 });
    expect(after.body.finished_at).not.toBeNull();
    const runsB = await server.call("GET", `${base}/tasks/${b.id}/runs`, { token });
    expect(runsB.body[0]).toMatchObject({ status: "failed", error_message: "interrupted by server restart" });
    expect(runsB.body[0].finished_at).not.toBeNull();
    await eventually(async () => (processAlive(interrupted.runner_pid) ? undefined : true), 10_000, "the orphaned agent to stop");

    const ranAfter = await finished(server.call, token, wsId, queued.id);
    expect(ranAfter.status).toBe("succeeded");

    const before = await server.call("GET", `${base}/executions/${done.id}`, { token });
    expect(before.body).toEqual(done);
    const runsA = await server.call("GET", `${base}/tasks/${a.id}/runs`, { token });
    expect(runsA.body).toHaveLength(1);
    expect(runsA.body[0].status).toBe("succeeded");

    // The task is free again.
    const again = await server.call("POST", `${base}/tasks/${b.id}/runs`, { token, json: { instructions: "succeed" } });
    expect(again.status).toBe(202);
    expect((await finished(server.call, token, wsId, again.body.id)).status).toBe("succeeded");
  });
});
