import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { newWorkspace } from "./api";
import { chooseRunners, dedicatedRunner } from "./claims";
import { agentWorkspace, defaultAgent, eventually, type AgentCommand } from "./engine";
import { spawnRunner, stopRunner } from "./runner-process";

/**
 * On the shared server: an administrator's workspace whose default agent is `agent`, served only by
 * a runner process of its own (a dedicated runner that only this workspace chose) started with
 * `env`. What a file once started a whole server for: its agent's command, and the runner's own
 * settings (AGENT_KILL_GRACE_SECONDS, AGENT_WORKDIR, DIFF_MAX_BYTES, RUNNER_DIR, an
 * AGENT_TIMEOUT_SECONDS shorter than the server's; AGENT_MAX_CONCURRENT becomes its slots:
 * docs/configuration.md). Not AGENT_SANDBOX=off: the shared server gives no jobs to a runner without
 * a sandbox (RUNNERS_REQUIRE_SANDBOX), and the server's own limits stay the server's (its log cap).
 * The runner keeps its files in a private directory of its own, removed by `stop`.
 */
export async function workspaceWithRunner(name: string, env: Record<string, string>, agent?: AgentCommand) {
  const owned = await agentWorkspace(agent);
  const { server, token, wsId } = owned;
  const capacity = Number(env.AGENT_MAX_CONCURRENT ?? 2);
  const runner = await dedicatedRunner(server, token, [wsId], name, { capacity });
  const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), `taskboard-runner-${name}-`));
  // A runner process takes RUNNER_CAPACITY runs at once (2 unless told), not AGENT_MAX_CONCURRENT:
  // that is the server's, for its embedded runner.
  const child = spawnRunner(
    server.url,
    runner.token,
    { RUNNER_PRIVATE_DIR: path.join(privateDir, "state"), RUNNER_CAPACITY: String(capacity), ...env },
    ["ignore", "pipe", "pipe"],
  );
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  await eventually(
    async () => {
      const list = await server.call("GET", "/api/runners", { token });
      return list.body.find?.((r: { id: string; status: string }) => r.id === runner.id && r.status === "online");
    },
    60_000,
    `runner ${name} to come online (output: ${output.join("")})`,
  );
  return {
    ...owned,
    runnerId: runner.id,
    /** The runner's own secret, for a test that checks its agents never see it. */
    runnerToken: runner.token,
    /** Another workspace of the same owner, with the same default agent and served by the same runner. */
    async another(name?: string) {
      const id = (await newWorkspace(token, name)).id;
      await defaultAgent(server, token, id, agent);
      await chooseRunners(server, token, [id], [runner.id]);
      return id;
    },
    /** What the runner printed so far. */
    output: () => output.join(""),
    /** SIGTERM (its runs handed back), SIGKILL after 20 s; the runner's record and files removed. */
    async stop() {
      await stopRunner(child, 20_000);
      await server.call("DELETE", `/api/runners/${runner.id}`, { token });
      fs.rmSync(privateDir, { recursive: true, force: true, maxRetries: 5 }); // an agent's last writes may still land
    },
  };
}
