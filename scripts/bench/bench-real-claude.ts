// `npm run bench:real-claude`: from "Run" (POST …/runs) to the first message of the real Claude Code
// (the shipped adapter and its bundled CLI, from the Claude Code preset) readable through GET …/log,
// against the scripted Anthropic fake (tests/fixtures/scripted-model.ts), on PGlite. Also when the
// model got its first request, to show how much is the CLI's own start-up. Prints a table; the
// figures are written by hand into docs/PERFORMANCE.md and docs/agents.md.
import { spawnSync } from "node:child_process";
import { needsBuild, root } from "../lib/build-state.mjs";
import { startServer } from "../lib/server.mjs";
import { startScriptedModel } from "../../tests/fixtures/scripted-model";

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild() && spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);
const model = await startScriptedModel();
const server = await startServer({
  label: "bench-real-claude",
  env: {
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
  for (let i = 0; i < RUNS; i++) {
    const task = (await call("POST", `/api/workspaces/${ws}/tasks`, { title: `bench ${i}`, status: "todo" }, token)).id;
    const marker = model.script(`bench-${i}`, [{ text: "Hello." }]);
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
    const request = (model.played(`bench-${i}`)[0]?.at ?? NaN) - t0;
    rows.push({ first, request, total: Date.now() - t0 });
    console.log(`run ${i + 1}: model asked after ${request} ms, first message readable after ${first} ms`);
  }
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)]} ms, min ${sorted[0]} ms, max ${sorted[sorted.length - 1]} ms`;
  };
  console.log(`\n${RUNS} runs of the real Claude Code:`);
  console.log(`  Run → the model's first request: ${summary(rows.map((r) => r.request))}`);
  console.log(`  Run → first message readable in the log: ${summary(rows.map((r) => r.first))}`);
} finally {
  await server.stop();
  await model.close();
  process.exit(0);
}
