import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bubblewrapUsable } from "@/lib/sandbox/mode";
import {
  engineServer,
  eventually,
  finished,
  newStore,
  newTask,
  processAlive,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// `npm start` with nothing set: the server starts one runner as a child process, registered for
// itself, and that process (never the server) starts the agents: the bundled demo agent runs from
// the board with no set-up. RUNNER_EMBEDDED=false: no child, and a run waits for a runner, saying so.

let store: Store;
let server: EngineServer;

beforeAll(async () => {
  store = await newStore("embedded");
  server = await engineServer(store, {}, "embedded");
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const parentOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
const environ = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");

describe("the embedded runner", () => {
  it("is a registered child process that runs the demo agent, and the server starts no agent itself", async () => {
    const { token, wsId } = await workspaceOn(server);
    const runners = await eventually(async () => {
      const listed = (await server.call("GET", "/api/runners", { token })).body as { name: string; status: string; sandbox: string }[];
      return listed.some((r) => r.status === "online") ? listed : undefined;
    });
    expect(runners).toEqual([
      expect.objectContaining({
        name: expect.stringMatching(/^embedded \(/),
        status: "online",
        sandbox: bubblewrapUsable().usable ? "bubblewrap" : "none",
      }),
    ]);

    const task = await newTask(server.call, token, wsId, { title: "demo" });
    const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: {} });
    expect(started.status).toBe(202);
    const running = await eventually(async () => {
      const e = (await server.call("GET", `/api/workspaces/${wsId}/executions/${started.body.id}`, { token })).body;
      return e.runner_pid ? e : undefined;
    });
    // The agent's parent is the runner, a process of its own whose parent is the server.
    const runnerPid = parentOf(running.runner_pid);
    expect(runnerPid).not.toBe(server.child.pid);
    // It runs the runner `npm run build` bundled (scripts/build-runner.mjs), with plain node.
    expect(fs.readFileSync(`/proc/${runnerPid}/cmdline`, "utf8").split("\0")).toEqual([
      process.execPath,
      "--enable-source-maps",
      expect.stringMatching(/\/\.next\/runner\/main\.mjs$/),
      "--embedded",
      "--token-fd",
      "3",
      "",
    ]);
    expect(parentOf(runnerPid)).toBe(server.child.pid);
    // The runner holds none of the server's secrets: no database, no auth secret, no data directory.
    const names = environ(runnerPid).map((entry) => entry.split("=")[0]);
    for (const secret of ["DATABASE_URL", "AUTH_SECRET", "DATA_DIR", "ADMIN_PASSWORD", "TASKBOARD_RUNNER_TOKEN"])
      expect(names).not.toContain(secret);

    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done).toMatchObject({ status: "succeeded", runner_name: runners[0].name });

    // A stopped server stops its runner.
    await server.stop();
    await eventually(async () => (processAlive(runnerPid) ? undefined : true), 15_000, "the embedded runner to exit");
    server = await engineServer(store, {}, "embedded-again");
    // The next start reuses the registration.
    const again = (await server.call("GET", "/api/runners", { token })).body as { name: string }[];
    expect(again.map((r) => r.name)).toEqual([runners[0].name]);
  }, 120_000);
});

describe("RUNNER_EMBEDDED=false", () => {
  it("starts no runner: a run stays queued and says no runner is online", async () => {
    // A data directory of its own: the first one's embedded runner was seen moments ago.
    const alone = await newStore("not-embedded");
    await server.stop();
    server = await engineServer(alone, { RUNNER_EMBEDDED: "false" }, "not-embedded");
    const { token, wsId } = await workspaceOn(server);
    expect((await server.call("GET", "/api/runners", { token })).body).toEqual([]);
    const task = await newTask(server.call, token, wsId, { title: "waits" });
    const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: {} });
    expect(started.body).toMatchObject({ status: "queued", waiting_for_runner: { reason: "none_online" } });
    expect(started.body.waiting_for_runner.message).toMatch(/^Waiting for a runner/);
    await server.call("POST", `/api/workspaces/${wsId}/executions/${started.body.id}/cancel`, { token });
    await server.stop();
    await alone.drop();
  }, 60_000);
});
