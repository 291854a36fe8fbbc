#!/usr/bin/env node
// `npm run bench:cancel`: how soon a person's Cancel stops an agent on a remote runner (docs/runners.md,
// "Heartbeats"). The server runs no agent itself (RUNNER_EMBEDDED=false), on PGlite; one runner process
// (capacity 2, the sandbox off) runs the agent, AGENT_COMMAND `sleep 60`. RUNS times: start a run, wait
// until it is `running` with its runner_pid, wait 0–5 s (one offset in each twentieth of the 5 s, in a
// random order, so the phase of a runner that heartbeats every 5 s is sampled evenly), then
// `POST …/executions/{id}/cancel`, and time (a) the cancel's answer and (b) until the agent's process
// (runner_pid) is gone, polled every 20 ms, both from sending the cancel.
// The runner is this build's bundle (.next/runner/main.mjs); BENCH_RUNNER_BUNDLE=<file> runs another
// runner bundle instead (an older commit's, built with scripts/build-runner.mjs in a worktree of it),
// named in the table by BENCH_RUNNER_LABEL (default: the file's path).
// Writes docs/PERFORMANCE.md between the bench:cancel markers: one row per runner, a row for another
// runner than this run's is kept, so two runs (another bundle, then this one) leave both side by side.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root, RUNNER_BUNDLE } from "../lib/build-state.mjs";
import { benchClient, until, writeBenchSection } from "../lib/bench-report.mjs";
import { startServer } from "../lib/server.mjs";

const RUNS = 20;
const WARM_UP = 2; // runs not counted: the server's routes compile and warm up
const MAX_WAIT_MS = 5000;
const ADMIN = { username: "admin", password: "bench-admin-password" };
const SECTION = "cancel";

const bundle = process.env.BENCH_RUNNER_BUNDLE ? path.resolve(process.env.BENCH_RUNNER_BUNDLE) : RUNNER_BUNDLE;
const label = process.env.BENCH_RUNNER_BUNDLE
  ? (process.env.BENCH_RUNNER_LABEL ?? `\`${bundle}\``)
  : (process.env.BENCH_RUNNER_LABEL ?? "this build's runner (`.next/runner/main.mjs`)");
if (!fs.existsSync(bundle)) {
  console.error(`no runner bundle at ${bundle} (npm run build makes .next/runner/main.mjs)`);
  process.exit(1);
}
// Not rebuilt here: the figures are those of the build in .next, whatever changed since.
if (needsBuild()) console.log("note: sources are newer than the build in .next; measuring the build as it is");

const result = await bench();
const summary = (values) => {
  const s = stats(values);
  return `${s.median} / ${s.p90} / ${s.max}`;
};
const when = new Date().toISOString().slice(0, 16).replace("T", " ");
const load = os
  .loadavg()
  .map((value) => value.toFixed(2))
  .join(" ");
const odd = [
  result.refused ? `${result.refused} cancels not answered 200 \`cancelled\`` : "",
  result.unreported ? `${result.unreported} cancels answered before the runner reported (RUN_STOP_WAIT_SECONDS)` : "",
  result.survivors ? `${result.survivors} agents still alive 20 s after the cancel (killed by the bench)` : "",
].filter(Boolean);
const row = `| ${label} | ${summary(result.answers)} | ${summary(result.gone)} | ${RUNS} | ${when} UTC, load ${load}${odd.length ? `; ${odd.join("; ")}` : ""} |`;
console.log(`${label}: cancel answered (ms, median / p90 / max) ${summary(result.answers)}; agent gone ${summary(result.gone)}`);
if (odd.length) console.log(odd.join("\n"));
writeReport(row);
process.exit(0);

async function bench() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-cancel-"));
  const server = await startServer({
    dataDir,
    label: "bench-cancel",
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      RUNNER_EMBEDDED: "false",
      AGENT_COMMAND: "sleep 60",
      // Its runner runs unsandboxed (AGENT_SANDBOX=off, below): the server must hand it jobs.
      RUNNERS_REQUIRE_SANDBOX: "false",
    },
  });
  let runner;
  let unreported = 0;
  const runnerLogFile = path.join(os.tmpdir(), "taskboard-bench-cancel-runner.log");
  const runnerLog = fs.openSync(runnerLogFile, "w");
  try {
    const api = benchClient(server.url);
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    const registered = (await api("POST", "/api/runners", { name: "bench" }, token)).body;
    runner = spawn(process.execPath, [bundle, "--url", server.url, "--token", registered.token, "--capacity", "2"], {
      cwd: root,
      // The sandbox's start-up is bench:sandbox's; with it off, runner_pid is the agent's own process.
      env: { ...process.env, AGENT_SANDBOX: "off" },
      stdio: ["ignore", runnerLog, runnerLog],
    });
    // The server says when a cancel's answer gave up waiting for the runner's report.
    server.child.stdout.on("data", (chunk) => (unreported += (String(chunk).match(/its runner has not reported yet/g) ?? []).length));
    await until(async () => (await api("GET", "/api/runners", undefined, token)).body[0]?.status === "online");
    // One offset in each twentieth of 0–5 s, in a random order.
    const waits = shuffle(Array.from({ length: RUNS }, (_, i) => Math.round(((i + Math.random()) / RUNS) * MAX_WAIT_MS)));
    const answers = [];
    const gone = [];
    let refused = 0;
    let survivors = 0;
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const task = (await api("POST", `/api/workspaces/${ws}/tasks`, { title: `cancel ${i}` }, token)).body;
      const started = (await api("POST", `/api/workspaces/${ws}/tasks/${task.id}/runs`, {}, token)).body;
      const execution = `/api/workspaces/${ws}/executions/${started.id}`;
      let pid;
      await until(async () => {
        const row = (await api("GET", execution, undefined, token)).body;
        pid = row.runner_pid;
        return row.status === "running" && Boolean(pid);
      });
      const counted = i >= WARM_UP;
      await sleep(counted ? waits[i - WARM_UP] : 1000);
      const sent = performance.now();
      const answering = api("POST", `${execution}/cancel`, undefined, token).then((answer) => ({
        answer,
        ms: Math.round(performance.now() - sent),
      }));
      let goneMs;
      while (alive(pid)) {
        if (performance.now() - sent > 20_000) break;
        await sleep(20);
      }
      if (alive(pid)) {
        if (counted) survivors++;
        killGroup(pid);
        goneMs = Infinity;
      } else goneMs = Math.round(performance.now() - sent);
      const { answer, ms } = await answering;
      if (answer.status !== 200 || answer.body?.status !== "cancelled") {
        console.log(`run ${i}: cancel answered ${answer.status} ${JSON.stringify(answer.body)}`);
        if (counted) refused++;
      }
      if (!counted) continue;
      answers.push(ms);
      gone.push(goneMs);
      console.log(
        `run ${i - WARM_UP + 1}/${RUNS}: waited ${waits[i - WARM_UP]} ms; cancel answered in ${ms} ms, agent gone in ${goneMs} ms`,
      );
    }
    return { answers, gone, refused, survivors, unreported };
  } finally {
    runner?.kill("SIGTERM");
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.closeSync(runnerLog);
    console.log(`the runner's output: ${runnerLogFile}`);
  }
}

/** The block: a table with one row per runner; rows for other runners than this run's are kept. */
function writeReport(row) {
  const file = path.join(root, "docs", "PERFORMANCE.md");
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf(`<!-- bench:${SECTION}:start -->`);
  const end = text.indexOf(`<!-- bench:${SECTION}:end -->`);
  const header = "| runner | cancel answered, ms: median / p90 / max | agent's process gone, ms: median / p90 / max | cancels | measured |";
  const kept =
    start >= 0 && end > start
      ? text
          .slice(start, end)
          .split("\n")
          .filter((line) => line.startsWith("| ") && line !== header)
      : [];
  const mine = kept.findIndex((line) => line.startsWith(`| ${label} |`));
  const rows = mine >= 0 ? kept.with(mine, row) : [...kept, row];
  writeBenchSection(SECTION, [
    "## A person's Cancel on a remote runner (`npm run bench:cancel`)",
    "",
    `On PGlite, ${os.cpus().length} cores shared with other work; the server runs no agent (\`RUNNER_EMBEDDED=false\`), one`,
    "runner process (capacity 2, the sandbox off) runs `sleep 60` as the agent. Each time, the run is `running` with its",
    "`runner_pid`, the bench waits 0–5 s (evenly over the 5 s, in a random order), sends `POST …/executions/{id}/cancel`",
    "and times its answer (which waits for the runner's report) and the agent's process gone (polled every 20 ms), both",
    "from sending the cancel. One run at a time; the load average is at the end of each row's run.",
    "",
    header,
    "|---|---:|---:|---:|---|",
    ...rows,
  ]);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), max: sorted.at(-1) };
}

function shuffle(values) {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
