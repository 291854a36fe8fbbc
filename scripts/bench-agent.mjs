#!/usr/bin/env node
// `npm run bench:agent`: from "Run agent" (POST …/runs) to the agent's first session/update stored
// and readable through the API, for an ACP profile (the fake ACP agent, tests/fixtures). The agent's
// own start-up (Node boot, SDK load, its side of the handshake until it sends its first update) is
// measured by the agent itself and reported apart: the board's cost is the rest. On PGlite and (when
// reachable) PostgreSQL; writes the results into docs/PERFORMANCE.md between the bench:agent markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root } from "./lib/build-state.mjs";
import { startServer } from "./lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "./lib/postgres.mjs";

const FAKE_ACP = path.join(root, "tests/fixtures/fake-acp-agent.mjs");
const RUNS = 20;

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const results = [await bench("pglite")];
if (await postgresReachable()) results.push(await bench("postgresql"));
else console.log("PostgreSQL not reachable: PGlite only");
writeReport(results);
process.exit(0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-agent-"));
  const env = { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "bench-admin-password", AGENT_MAX_CONCURRENT: "2" };
  const server = await startServer({ databaseUrl: scratch?.url, dataDir, label: `bench-agent-${kind}`, env });
  try {
    const api = client(server.url);
    const token = (await api("POST", "/api/auth/login", { username: "admin", password: "bench-admin-password" })).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    const profile = (
      await api(
        "POST",
        `/api/workspaces/${ws}/agents`,
        { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
        token,
      )
    ).body;
    const rows = [];
    for (let i = 0; i < RUNS; i++) {
      const task = (await api("POST", `/api/workspaces/${ws}/tasks`, { title: `bench ${i}`, status: "todo" }, token)).body.id;
      const requested = Date.now();
      const started = await api(
        "POST",
        `/api/workspaces/${ws}/tasks/${task}/runs`,
        { instructions: "@fake sleep 1", agent_id: profile.id },
        token,
      );
      if (started.status !== 202) throw new Error(`run: ${started.status} ${JSON.stringify(started.body)}`);
      let first;
      while (!first) {
        const log = (await api("GET", `/api/workspaces/${ws}/executions/${started.body.id}/log`, undefined, token)).body;
        first = log.entries.find((entry) => entry.type === "agent_message_chunk");
        if (!first) await sleep(5);
      }
      const seen = Date.now();
      const meta = first.update._meta;
      const agentStartup = meta.fake_sent_at - meta.fake_process_started_at;
      rows.push({ total: seen - requested, agentStartup, overhead: seen - requested - agentStartup });
      for (;;) {
        const e = (await api("GET", `/api/workspaces/${ws}/executions/${started.body.id}`, undefined, token)).body;
        if (!["queued", "running", "waiting_for_input"].includes(e.status)) break;
        await sleep(50);
      }
    }
    const pick = (key) => rows.map((row) => row[key]).sort((a, b) => a - b);
    const result = {
      kind,
      total: stats(pick("total")),
      agentStartup: stats(pick("agentStartup")),
      overhead: stats(pick("overhead")),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

function stats(sorted) {
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] };
}

function writeReport(results) {
  const file = path.join(root, "docs/PERFORMANCE.md");
  const row = (r, key) => `${r[key].median} / ${r[key].p90} / ${r[key].max}`;
  const section = [
    "<!-- bench:agent:start -->",
    '## From "Run agent" to the agent\'s first update (`npm run bench:agent`)',
    "",
    `${RUNS} runs of an ACP profile (the fake ACP agent) per database, one after another, on ${os.cpus().length} cores (${new Date().toISOString().slice(0, 10)}).`,
    "Total: from sending `POST …/runs` to the first `agent_message_chunk` entry readable through `GET …/log` (polled every 5 ms).",
    "The agent's own start-up (Node boot, SDK load, its side of initialize/session/new until it sends the update) is timed by",
    "the agent and subtracted: the rest is the board's cost (request, claim, working directory, spawn, handshake, the write",
    "of the entry, the read). Goal: ≤ 300 ms beyond the agent's own start-up. Milliseconds, median / p90 / max.",
    "",
    "| database | total | agent's own start-up | board's cost |",
    "|---|---|---|---|",
    ...results.map((r) => `| ${r.kind} | ${row(r, "total")} | ${row(r, "agentStartup")} | ${row(r, "overhead")} |`),
    "",
    "The first entry after a quiet spell is written at once (LogSink.expedite), not after AGENT_LOG_FLUSH_MS.",
    "<!-- bench:agent:end -->",
  ].join("\n");
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf("<!-- bench:agent:start -->");
  const end = text.indexOf("<!-- bench:agent:end -->");
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + section + text.slice(end + "<!-- bench:agent:end -->".length)
      : `${text.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}

function client(url) {
  return async (method, urlPath, json, token) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (json !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(url + urlPath, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
