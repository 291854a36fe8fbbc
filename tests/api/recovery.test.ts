import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// The server is killed (SIGKILL) in the middle of a run and started again on the same data and
// port. Its embedded runner, a child process, outlives it: the run ends with the agent's own outcome
// and its whole log (a restart ends no run), what was queued runs on the next server's runner, and
// what had finished stays as it was.

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

async function fullLog(call: EngineServer["call"], token: string, path: string) {
  const entries = [];
  for (let offset = 0; ;) {
    const page = (await call("GET", `${path}/log?offset=${offset}`, { token })).body;
    entries.push(...page.entries);
    if (page.next_offset === offset) return entries;
    offset = page.next_offset;
  }
}

describe("restart after a crash", () => {
  it("keeps the run going through the embedded runner, runs what was queued and keeps what had finished", async () => {
    const { token, wsId } = await workspaceOn(server);
    const base = `/api/workspaces/${wsId}`;
    const run = async (taskId: string, instructions: string) =>
      (await server.call("POST", `${base}/tasks/${taskId}/runs`, { token, json: { instructions } })).body;
    const [a, b, c] = [
      await newTask(server.call, token, wsId, { title: "finished before" }),
      await newTask(server.call, token, wsId, { title: "outlives the server" }),
      await newTask(server.call, token, wsId, { title: "queued" }),
    ];
    const done = await finished(server.call, token, wsId, (await run(a.id, "succeed")).id);
    expect(done.status).toBe("succeeded");
    const survivor = await run(b.id, "rate 50 8");
    expect(survivor).toMatchObject({ status: "running", runner_name: expect.stringMatching(/^embedded/) });
    const queued = await run(c.id, "succeed");
    expect(queued.status).toBe("queued");
    await eventually(async () => {
      const e = await server.call("GET", `${base}/executions/${survivor.id}`, { token });
      return e.body.line_count >= 20 ? true : undefined;
    });

    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    server = await engineServer(store, ENV, "recovery-2", Number(new URL(server.url).port));

    const ended = await finished(server.call, token, wsId, survivor.id, 90_000);
    expect(ended).toMatchObject({ status: "succeeded", exit_code: 0, error_message: null });
    const entries = await fullLog(server.call, token, `${base}/executions/${survivor.id}`);
    expect(entries.map((e: { seq: number }) => e.seq)).toEqual(entries.map((_: unknown, i: number) => i));
    const lines = outputLines({ entries });
    expect(lines.length).toBeGreaterThan(300);
    expect(lines).toEqual(lines.map((_, n) => `rate line ${n} ${"y".repeat(60)}`));

    const ranAfter = await finished(server.call, token, wsId, queued.id, 60_000);
    expect(ranAfter.status).toBe("succeeded");
    const before = await server.call("GET", `${base}/executions/${done.id}`, { token });
    expect(before.body).toEqual(done);

    // The second server kept the first one's registration: one embedded runner, online.
    const runners = (await server.call("GET", "/api/runners", { token })).body as { name: string; status: string }[];
    expect(runners.filter((r) => r.name.startsWith("embedded"))).toEqual([expect.objectContaining({ status: "online" })]);
  }, 180_000);
});
