// `npm run bench:real-claude`: from "Run" (POST …/runs) to the first message of the real Claude Code
// (the shipped adapter and its bundled CLI, from the Claude Code preset) readable through GET …/log,
// against the scripted Anthropic fake (tests/fixtures/scripted-model.ts), on PGlite. Also when the
// model got its first request, to show how much is the CLI's own start-up, and the whole turn (Run →
// the run finished). Measured twice, with the agent in the sandbox (AGENT_SANDBOX=bubblewrap) and
// without it (off), so the sandbox's cost per turn is the difference. Runs go through the server's
// embedded runner process, as every run does. Prints a table; the figures are written by hand into
// docs/PERFORMANCE.md and docs/agents.md.
import { spawnSync } from "node:child_process";
import { needsBuild, root } from "../lib/build-state.mjs";
import { startServer } from "../lib/server.mjs";
import { startScriptedModel } from "../../tests/fixtures/scripted-model";

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild() && spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);
const model = await startScriptedModel();
const results: Record<string, { first: number; request: number; total: number }[]> = {};
for (const mode of ["bubblewrap", "off"]) results[mode] = await measure(mode);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log("\n| sandbox | Run → model's first request | Run → first message | Run → turn finished |");
console.log("|---|---|---|---|");
for (const [mode, rows] of Object.entries(results)) {
  const cells = (["request", "first", "total"] as const).map((key) => {
    const values = rows.map((row) => row[key]);
    return `${median(values)} (${Math.min(...values)}–${Math.max(...values)})`;
  });
  console.log(`| ${mode} | ${cells.join(" | ")} |`);
}
const overhead = median(results.bubblewrap.map((r) => r.total)) - median(results.off.map((r) => r.total));
console.log(`\nThe sandbox's cost per turn (difference of the medians of Run → turn finished): ${overhead} ms`);
await model.close();
process.exit(0);

async function measure(sandbox: string) {
  const server = await startServer({
    label: `bench-real-claude-${sandbox}`,
    env: {
      AGENT_SANDBOX: sandbox,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-bench",
      AGENT_LOG_FLUSH_MS: "100",
    },
  });
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const response = await fetch(server.url + url, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a benchmark reads a few fields of JSON answers
    return (await response.json()) as any;
  };
  try {
    const token = (await call("POST", "/api/auth/login", ADMIN)).access_token;
    const ws = (await call("POST", "/api/workspaces", { name: "bench" }, token)).id;
    const presets = await call("GET", `/api/workspaces/${ws}/agents/presets`, undefined, token);
    const claude = presets.find((p: { preset: string }) => p.preset === "claude-code");
    const { name, kind, command, args, env_passthrough } = claude;
    const profile = await call(
      "POST",
      `/api/workspaces/${ws}/agents`,
      { name, kind, command, args, env_passthrough, preset: "claude-code" },
      token,
    );
    const rows: { first: number; request: number; total: number }[] = [];
    const marker0 = `${sandbox}-`;
    for (let i = 0; i < RUNS; i++) {
      const task = (await call("POST", `/api/workspaces/${ws}/tasks`, { title: `bench ${i}`, status: "todo" }, token)).id;
      const marker = model.script(`bench-${marker0}${i}`, [{ text: "Hello." }]);
      const t0 = Date.now();
      const run = await call(
        "POST",
        `/api/workspaces/${ws}/tasks/${task}/runs`,
        { instructions: `Say hello. ${marker}`, agent_id: profile.id },
        token,
      );
      let first = 0;
      for (;;) {
        const log = await call("GET", `/api/workspaces/${ws}/executions/${run.id}/log`, undefined, token);
        if (!first && log.entries.some((e: { type: string }) => e.type === "agent_message_chunk")) first = Date.now() - t0;
        if (first && log.status !== "running" && log.status !== "queued") break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const request = (model.played(`bench-${marker0}${i}`)[0]?.at ?? NaN) - t0;
      rows.push({ first, request, total: Date.now() - t0 });
      console.log(
        `${sandbox} run ${i + 1}: model asked after ${request} ms, first message after ${first} ms, finished after ${rows.at(-1)!.total} ms`,
      );
    }
    return rows;
  } finally {
    await server.stop();
  }
}
