import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { queueIn, registerRunner } from "../helpers/claims";

// A run's log is bounded (issue #35, finding 5): the runner keeps at most AGENT_LOG_MAX_BYTES of an
// agent's output, says so once where it stops and counts the rest at the end, and the run goes on;
// the server cuts an oversized entry from any runner and stores the rest of its batch.

const FLOOD = path.resolve(import.meta.dirname, "../fixtures/flood-agent.mjs");
const CAP = 200_000;

let store: Store;
let server: EngineServer;
let admin: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("log-caps");
  server = await engineServer(store, {
    AGENT_COMMAND: `${process.execPath} ${FLOOD}`,
    AGENT_LOG_MAX_BYTES: String(CAP),
    AGENT_LOG_FLUSH_MS: "100",
    AGENT_TIMEOUT_SECONDS: "240",
  });
  ({ token: admin, wsId } = await workspaceOn(server));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

type Entry = { type: string; update: Record<string, unknown> };

async function wholeLog(workspace: string, executionId: string, bearer: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let offset = 0; ;) {
    const page = await server.call("GET", `/api/workspaces/${workspace}/executions/${executionId}/log?offset=${offset}&limit=10000`, {
      token: bearer,
    });
    expect(page.status).toBe(200);
    entries.push(...page.body.entries);
    if (page.body.next_offset === offset || page.body.next_offset >= page.body.line_count) return entries;
    offset = page.body.next_offset;
  }
}

describe("a run's log", () => {
  it("keeps at most AGENT_LOG_MAX_BYTES of an agent printing 100 MB: the run succeeds, the log says 'truncated' once and counts the rest", async () => {
    const task = await newTask(server.call, admin, wsId, { title: "flood" });
    const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {
      token: admin,
      json: { instructions: "100" },
    });
    expect(started.status).toBe(202);
    const ended = await finished(server.call, admin, wsId, started.body.id, 180_000);
    expect(ended.status).toBe("succeeded");
    expect(ended.report).toMatch(/^printed \d+ lines of 8000 bytes/);

    const entries = await wholeLog(wsId, started.body.id, admin);
    const bytes = (list: Entry[]) => list.reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry.update)), 0);
    const output = entries.filter((entry) => entry.type === "output");
    expect(output.length).toBeGreaterThan(10);
    // Within the cap plus one entry, with the runner's own notes (the prompt, the two notices) besides.
    expect(bytes(output)).toBeLessThanOrEqual(CAP + 8100);
    expect(bytes(entries)).toBeLessThanOrEqual(CAP + 8100 + 4096);
    const notices = entries.filter((entry) => entry.update.truncated === true);
    expect(notices.map((entry) => entry.type)).toEqual(["error", "error"]);
    expect(entries.filter((entry) => String(entry.update.message ?? "").startsWith("truncated: the log reached"))).toHaveLength(1);
    expect(notices[0].update.message).toBe(
      `truncated: the log reached AGENT_LOG_MAX_BYTES (${CAP} bytes); the agent's further output is dropped, and the run goes on`,
    );
    // Everything after the notice is the agent's dropped output, counted once at the end.
    expect(entries.indexOf(notices[0])).toBe(entries.indexOf(output.at(-1)!) + 1);
    const dropped = Number(notices[1].update.dropped_bytes);
    expect(dropped).toBeGreaterThan(99 * 1024 * 1024);
    expect(notices[1].update.message).toMatch(
      new RegExp(`^truncated: ${dropped} bytes dropped \\(\\d+ log entries past AGENT_LOG_MAX_BYTES\\)$`),
    );
    expect(outputTexts(entries)).not.toContain("flood done");
  }, 240_000);

  it("cuts an oversized entry from a runner and marks it, keeps a payload without text as a stub, and stores the rest of the batch", async () => {
    const { token, wsId: handWs, queue } = await queueIn(server);
    // A profile only a runner labelled "hand" takes: the embedded runner leaves its run alone.
    const agent = await server.call("POST", `/api/workspaces/${handWs}/agents`, {
      token,
      json: { name: "by hand", kind: "command", command: "true", labels: ["hand"] },
    });
    expect(agent.status).toBe(201);
    const runner = await registerRunner(server, token, "hand", { labels: ["hand"] });
    const { executionId } = await queue("hand-fed log", agent.body.id);
    expect(await runner.claim()).toBe(executionId);
    const big = "y".repeat(400 * 1024); // two of them fit the request's 1 MB
    const answer = await runner.call("POST", "/log", {
      batches: [
        {
          execution_id: executionId,
          first_seq: 0,
          entries: [
            { type: "output", update: { stream: "stdout", text: big } },
            { type: "plan", update: { sessionUpdate: "plan", entries: [big] } },
            { type: "output", update: { stream: "stdout", text: "after" } },
          ],
        },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([{ execution_id: executionId, next_seq: 3, error: null }]);
    const entries = await wholeLog(handWs, executionId, token);
    expect(entries.map((entry) => entry.update)).toEqual([
      { stream: "stdout", text: big.slice(0, 32 * 1024), truncated: true, chars: JSON.stringify({ stream: "stdout", text: big }).length },
      { sessionUpdate: "plan", truncated: true, chars: JSON.stringify({ sessionUpdate: "plan", entries: [big] }).length },
      { stream: "stdout", text: "after" },
    ]);
    await runner.finish(executionId);
  });

  it("refuses a runner's entries (413, in words) once the run's log holds AGENT_LOG_MAX_BYTES and 2 MB more; other runs' batches are stored", async () => {
    const { token, wsId: handWs, queue } = await queueIn(server);
    const agent = await server.call("POST", `/api/workspaces/${handWs}/agents`, {
      token,
      json: { name: "by hand", kind: "command", command: "true", labels: ["flood"] },
    });
    const runner = await registerRunner(server, token, "flood", { labels: ["flood"], capacity: 2 });
    const flooded = await queue("flooded by its runner", agent.body.id);
    expect(await runner.claim()).toBe(flooded.executionId);
    const quiet = await queue("a quiet run of the same runner", agent.body.id);
    expect(await runner.claim()).toBe(quiet.executionId);
    const lines = Array.from({ length: 50 }, () => ({ type: "output", update: { stream: "stdout", text: "z".repeat(16 * 1024) } }));
    const send = (firstSeq: number) =>
      runner.call("POST", "/log", {
        batches: [
          { execution_id: flooded.executionId, first_seq: firstSeq, entries: lines },
          {
            execution_id: quiet.executionId,
            first_seq: firstSeq / 50,
            entries: [{ type: "output", update: { stream: "stdout", text: "hi" } }],
          },
        ],
      });
    // 50 entries of 16 kB a request: the third passes CAP + 2 MB, and the fourth is refused.
    for (let n = 0; n < 3; n++) {
      const answer = await send(n * 50);
      expect(answer.body.results.map((result: { error: unknown }) => result.error)).toEqual([null, null]);
    }
    const refused = await send(150);
    expect(refused.status).toBe(200);
    expect(refused.body.results[0]).toMatchObject({ execution_id: flooded.executionId, next_seq: null, error: { status: 413 } });
    expect(refused.body.results[0].error.detail).toMatch(
      /^This run's log is full: the server keeps about 200000 bytes of a run's log \(AGENT_LOG_MAX_BYTES\)/,
    );
    expect(refused.body.results[1]).toEqual({ execution_id: quiet.executionId, next_seq: 4, error: null });
    const stored = await server.call("GET", `/api/workspaces/${handWs}/executions/${flooded.executionId}`, { token });
    expect(stored.body.line_count).toBe(150);
    await runner.finish(flooded.executionId);
    await runner.finish(quiet.executionId);
  });
});

const outputTexts = (entries: Entry[]) => entries.filter((entry) => entry.type === "output").map((entry) => entry.update.text);
