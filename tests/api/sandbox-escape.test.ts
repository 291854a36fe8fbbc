import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// Escape attempts from inside a run (issue #23, "The sandbox"): a command agent
// (tests/fixtures/escape-agent.mjs) tries to read the server's environment and command line
// through /proc, DATA_DIR/auth-secret and another task's worktree, to write outside its worktree,
// to connect to PostgreSQL's port and to a host not on its profile's network_allow (a local server
// stands in for the internet), while the host that is listed stays reachable. Under the sandbox
// (AGENT_SANDBOX unset: auto) every attempt fails; on a server with AGENT_SANDBOX=off the same
// attempts succeed, which shows each one is real. The git tricks are tested with the runner's git.

const AGENT = path.resolve(import.meta.dirname, "../fixtures/escape-agent.mjs");
const ATTEMPTS = [
  "server-environ",
  "server-cmdline",
  "any-environ",
  "auth-secret",
  "other-worktree",
  "write-data-dir",
  "write-outside",
  "postgres",
  "denied-host",
];

let allowed: http.Server;
let denied: http.Server;
let outside: string;

function listen(body: string): Promise<http.Server> {
  return new Promise((resolve) => {
    const server = http.createServer((_request, response) => response.end(body));
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
const portOf = (server: http.Server) => (server.address() as { port: number }).port;

beforeAll(async () => {
  allowed = await listen("allowed host reached\n");
  denied = await listen("denied host reached\n");
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-escape-outside-"));
});

afterAll(() => {
  allowed?.close();
  denied?.close();
  if (outside) fs.rmSync(outside, { recursive: true, force: true });
});

/** Runs the attempts on a server of its own with the given AGENT_SANDBOX; the report's lines by attempt. */
async function attempt(label: string, env: Record<string, string>) {
  const store: Store = await newStore(label);
  let server: EngineServer | undefined;
  try {
    server = await engineServer(store, { AGENT_LOG_FLUSH_MS: "100", ...env }, label);
    const { token, wsId } = await workspaceOn(server);
    const ws = `/api/workspaces/${wsId}`;
    const profile = await server.call("POST", `${ws}/agents`, {
      token,
      json: { name: "escape", kind: "command", command: process.execPath, args: [AGENT], network_allow: [`127.0.0.1:${portOf(allowed)}`] },
    });
    expect(profile.status).toBe(201);
    const run = async (taskId: string, instructions: string) => {
      const started = await server!.call("POST", `${ws}/tasks/${taskId}/runs`, {
        token,
        json: { instructions, agent_id: profile.body.id },
      });
      expect(started.status).toBe(202);
      const done = await finished(server!.call, token, wsId, started.body.id, 60_000);
      expect(done.status, JSON.stringify(done)).toBe("succeeded");
      return done.report as string;
    };
    const planted = `planted-${Date.now()}`;
    const other = await newTask(server.call, token, wsId, { title: "The other task" });
    const otherWorktree = (await run(other.id, `plant ${planted}`)).trim().replace(/^planted in /, "");
    const outsideFile = path.join(outside, `${label}.txt`);
    const task = await newTask(server.call, token, wsId, { title: "Escape" });
    const targets = {
      serverPid: server.child.pid,
      dataDir: store.dataDir,
      otherWorktree,
      planted,
      outsideFile,
      allowedPort: portOf(allowed),
      deniedPort: portOf(denied),
    };
    const report = await run(task.id, JSON.stringify(targets));
    const lines = new Map(
      report
        .trim()
        .split("\n")
        .map((line) => [line.split(" ")[0], line] as const),
    );
    const escaped = fs.readdirSync(store.dataDir).some((name) => name.startsWith("escape-")) || fs.existsSync(outsideFile);
    return { lines, escaped, report };
  } finally {
    await server?.stop();
    await store.drop();
  }
}

describe("an agent's sandbox", () => {
  it("stops every escape attempt, and lets the agent reach the board's allowlisted host", async () => {
    const { lines, escaped, report } = await attempt("sandboxed", {});
    for (const name of ATTEMPTS) expect(lines.get(name), report).toMatch(new RegExp(`^${name} no `));
    expect(escaped).toBe(false);
    expect(lines.get("allowed-host"), report).toMatch(/^allowed-host yes /);
    // Through the sandbox's proxy: the listed host answers, the other is refused by the proxy.
    expect(lines.get("allowed-via-proxy"), report).toMatch(/^allowed-via-proxy yes /);
    expect(lines.get("denied-via-proxy"), report).toMatch(/^denied-via-proxy no HTTP\/1.1 403/);
  }, 240_000);

  it("with AGENT_SANDBOX=off, the same attempts succeed: each of them is real", async () => {
    const { lines, escaped, report } = await attempt("unsandboxed", { AGENT_SANDBOX: "off" });
    for (const name of ATTEMPTS) expect(lines.get(name), report).toMatch(new RegExp(`^${name} yes `));
    expect(escaped).toBe(true);
    expect(lines.get("allowed-host"), report).toMatch(/^allowed-host yes /);
  }, 240_000);
});
