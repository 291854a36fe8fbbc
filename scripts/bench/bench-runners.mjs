#!/usr/bin/env node
// `npm run bench:runners`: claim latency, from sending `POST …/runs` to the agent process started
// on an idle runner process (docs/runners.md). The server runs no agent itself (RUNNER_EMBEDDED=false);
// one runner process (`npm run runner`'s scripts/runner.mjs) waits in its long poll. The agent is
// a shell line that writes the clock (ns) to a file the moment it starts; the bench polls the file
// (local disk, no load on the server). Each run ends before the next starts, so the runner is idle.
// On PGlite and (when reachable) PostgreSQL; writes docs/PERFORMANCE.md between the bench:runners markers.
// Then log ingestion (bench-runners-logs.mjs) on PGlite, in a section of its own.
// BENCH_RUNNERS=claim or =logs runs one half only.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root } from "../lib/build-state.mjs";
import { benchClient, until, writeBenchSection } from "../lib/bench-report.mjs";
import { startServer } from "../lib/server.mjs";
import { benchLogIngestion, FULL_SPEED_MAX_BYTES } from "./bench-runners-logs.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";

const RUNS = 30;
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}
const only = process.env.BENCH_RUNNERS;
// BENCH_RUNNERS=full: only the 20 agents printing at full speed against their log cap, on PGlite.
if (only === "full") {
  writeFullSpeedReport(await benchLogIngestion("pglite", undefined, { fullSpeed: true }));
  process.exit(0);
}
if (only !== "logs") {
  const results = [await bench("pglite")];
  if (await postgresReachable()) results.push(await bench("postgresql"));
  else console.log("PostgreSQL not reachable: PGlite only");
  writeReport(results);
}
if (only !== "claim") {
  const results = [await benchLogIngestion("pglite")];
  if (await postgresReachable()) {
    const scratch = await createScratchDatabase("taskboard_bench");
    results.push(await benchLogIngestion("postgresql", scratch.url));
    await scratch.drop();
  }
  writeLogReport(results);
}
process.exit(0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-runners-"));
  const marks = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-marks-"));
  const env = {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    RUNNER_EMBEDDED: "false",
    AGENT_COMMAND: `date +%s%N > ${marks}/$TASKBOARD_EXECUTION_ID`,
    // Its runners run unsandboxed (AGENT_SANDBOX=off, below): the server must hand them jobs.
    RUNNERS_REQUIRE_SANDBOX: "false",
  };
  const server = await startServer({ databaseUrl: scratch?.url, dataDir, label: `bench-runners-${kind}`, env });
  let runner;
  try {
    const api = benchClient(server.url);
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    const registered = (await api("POST", "/api/runners", { name: "bench" }, token)).body;
    runner = spawn(process.execPath, ["scripts/runner.mjs", "--url", server.url, "--token", registered.token], {
      cwd: root,
      // The agent writes its mark outside any worktree, which the sandbox forbids; the sandbox's own
      // start-up is measured by bench:sandbox and adds to this.
      env: { ...process.env, AGENT_SANDBOX: "off" },
      stdio: "ignore",
    });
    await until(async () => (await api("GET", "/api/runners", undefined, token)).body[0]?.status === "online");
    const latencies = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const task = (await api("POST", `/api/workspaces/${ws}/tasks`, { title: `claim ${i}` }, token)).body;
      await sleep(300); // the runner is back in its long poll
      const sent = Date.now();
      const started = (await api("POST", `/api/workspaces/${ws}/tasks/${task.id}/runs`, {}, token)).body;
      const mark = path.join(marks, started.id);
      await until(async () => fs.existsSync(mark) && fs.readFileSync(mark, "utf8").trim().length > 0, 1);
      const at = Number(BigInt(fs.readFileSync(mark, "utf8").trim()) / 1_000_000n);
      if (i >= 3) latencies.push(at - sent); // the first runs warm the server's routes up
      await until(async () => {
        const row = (await api("GET", `/api/workspaces/${ws}/executions/${started.id}`, undefined, token)).body;
        return !["queued", "running"].includes(row.status);
      });
    }
    const summary = stats(latencies);
    console.log(`${kind}: claim latency median ${summary.median} ms, p90 ${summary.p90} ms, max ${summary.max} ms`);
    return { kind, ...summary };
  } finally {
    runner?.kill("SIGTERM");
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(marks, { recursive: true, force: true });
    await scratch?.drop();
  }
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), max: sorted.at(-1) };
}

function writeReport(results) {
  const section = [
    "## Runners: claim latency (`npm run bench:runners`)",
    "",
    `Per database, on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC):`,
    `from sending \`POST …/runs\` to the agent process started on an idle runner process (${RUNS} runs, one at a time; the agent`,
    "is a shell line that writes the clock when it starts; the sandbox is off, its start-up is `bench:sandbox`'s). The runner",
    "waits in its long poll; the run's events wake it.",
    "Goal: median ≤ 200 ms. Milliseconds.",
    "",
    "| database | median | p90 | max |",
    "|---|---|---|---|",
    ...results.map((r) => `| ${r.kind} | ${r.median} | ${r.p90} | ${r.max} |`),
  ];
  writeBenchSection("runners", section);
}

function writeLogReport(results) {
  const section = [
    "## Runners: log ingestion (`npm run bench:runners`)",
    "",
    `${os.cpus().length} cores shared with other work (load average ${os.loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC):`,
    "20 command agents at once, each printing 200 lines a second for 30 s (`scripts/bench/log-printer.mjs`), across 2 runner",
    "processes (capacity 10 each) on this machine; the server runs no agent (`RUNNER_EMBEDDED=false`), the sandbox is off",
    "(its start-up is `bench:sandbox`'s), `AGENT_LOG_FLUSH_MS` is the default 250.",
    "",
    `| figure | ${results.map((r) => r.kind).join(" | ")} | goal |`,
    `|---|${results.map(() => "---|").join("")}---|`,
    `| entries stored | ${results.map((r) => `${r.entries} (runs: ${r.statuses.join(", ")})`).join(" | ")} | 120,000 + prompts |`,
    `| log lag p50 / p99 / max, ms (every line of every run, read as the run view reads it) | ${results.map((r) => `${r.lagP50} / ${r.lagP99} / ${r.lagMax}`).join(" | ")} | p99 ≤ 1000 |`,
    `| the machine's CPU busy meanwhile (all processes, all cores) | ${results.map((r) => `${Math.round(r.machineBusy * 100)} %`).join(" | ")} | |`,
    `| server CPU per 1,000 entries (utime + stime of the \`next start\` process) | ${results.map((r) => `${(r.cpuPerThousand * 1000).toFixed(0)} ms (${r.cpuSeconds.toFixed(1)} s in all)`).join(" | ")} | |`,
    `| board column page p50 / p99, idle, ms | ${results.map((r) => `${Math.round(r.idleP50)} / ${Math.round(r.idleP99)}`).join(" | ")} | |`,
    `| board column page p50 / p99 while the agents print, ms | ${results.map((r) => `${Math.round(r.busyP50)} / ${Math.round(r.busyP99)} (${r.busyCount} requests)`).join(" | ")} | p99 ≤ 2 × idle |`,
    "",
    "A line's lag is from its printing to a reader seeing it the way the run view does: the workspace event stream, whose",
    "`execution.log` events carry a batch's entries when they are few (up to 500 and 64 KiB), else the log endpoint from its",
    "cursor. It includes the runner's pacing: one request per runner at most every 250 ms, for all its runs.",
    "This machine has 2 cores shared with other sessions' builds and tests: the figures vary between runs by tens of percent.",
  ];
  writeBenchSection("runners-logs", section);
}

function writeFullSpeedReport(r) {
  const section = [
    "## Runners: 20 agents printing at full speed (`BENCH_RUNNERS=full npm run bench:runners`)",
    "",
    `${os.cpus().length} cores shared with other work (load average ${os.loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC), PGlite:`,
    "20 command agents at once, each printing 8,000-character lines as fast as its pipe takes them for 30 s",
    `(\`scripts/bench/log-printer.mjs\`, FULL_SPEED=1), across 2 runner processes, with \`AGENT_LOG_MAX_BYTES\`=${FULL_SPEED_MAX_BYTES} (issue #35):`,
    "until its cap a run's output is paced by the server (the runner pauses the agent's pipes), after it the runner drops it.",
    "",
    "| figure | pglite |",
    "|---|---|",
    `| entries stored | ${r.entries} (runs: ${r.statuses.join(", ")}) |`,
    `| the machine's CPU busy meanwhile (all processes, all cores) | ${Math.round(r.machineBusy * 100)} % |`,
    `| server CPU (utime + stime of the \`next start\` process) | ${r.cpuSeconds.toFixed(1)} s (${(r.cpuPerThousand * 1000).toFixed(0)} ms per 1,000 entries) |`,
    `| the 2 runner processes' CPU | ${r.runnerCpuSeconds.toFixed(1)} s |`,
    `| log lag p50 / p99, ms (lines kept) | ${r.lagP50} / ${r.lagP99} |`,
    `| board column page p50 / p99, idle / while the agents print, ms | ${Math.round(r.idleP50)} / ${Math.round(r.idleP99)} · ${Math.round(r.busyP50)} / ${Math.round(r.busyP99)} (${r.busyCount} requests) |`,
  ];
  writeBenchSection("runners-full-speed", section);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
