#!/usr/bin/env node
// `npm run bench:shutdown`: how fast a runner starts and how fast a server stops (docs/runners.md,
// "Stopping the server"), on PGlite:
// - a runner process alone, from the bundle `npm run build` makes and through tsx, to its first log line;
// - a server's embedded runner: from the server answering /api/health to the runner online;
// - SIGTERM with an open event stream and no agent, and with an agent mid-run (RUNNER_GRACE_SECONDS=5):
//   until the server and every process it started are gone.
// Writes docs/PERFORMANCE.md between the bench:shutdown markers.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root, RUNNER_BUNDLE } from "../lib/build-state.mjs";
import { benchClient, writeBenchSection } from "../lib/bench-report.mjs";
import { descendants } from "../lib/process-tree.mjs";
import { startServer } from "../lib/server.mjs";

const STARTS = 5;
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const bundled = [];
const compiled = [];
for (let i = 0; i < STARTS; i++) {
  bundled.push(await runnerStart([RUNNER_BUNDLE]));
  compiled.push(await runnerStart(["--import", "tsx", "lib/runner-process/main.ts"]));
}
const online = [];
const idleStops = [];
for (let i = 0; i < STARTS; i++) {
  const { server, call, token, wsId, onlineMs } = await serve({});
  online.push(onlineMs);
  const stream = await fetch(`${server.url}/api/workspaces/${wsId}/events`, { headers: { authorization: `Bearer ${token}` } });
  const reading = stream.body.pipeTo(new WritableStream()).catch(() => {});
  await call("POST", `/api/workspaces/${wsId}/tasks`, { title: "seen", status: "todo" }, token);
  idleStops.push(await terminate(server));
  await reading;
  await server.stop();
}
const { server, call, token, wsId } = await serve({ RUNNER_GRACE_SECONDS: "5", AGENT_COMMAND: "sleep 60" });
const task = (await call("POST", `/api/workspaces/${wsId}/tasks`, { title: "mid-run", status: "todo" }, token)).body;
const run = (await call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {}, token)).body;
while (!(await call("GET", `/api/workspaces/${wsId}/executions/${run.id}`, undefined, token)).body.runner_pid) await sleep(100);
const busyStop = await terminate(server);
await server.stop();

const load = os.loadavg()[0].toFixed(1);
const when = new Date().toISOString().slice(0, 16).replace("T", " ");
const row = (name, values, unit = "ms") =>
  `| ${name} | ${median(values)} ${unit} | ${Math.min(...values)}–${Math.max(...values)} ${unit} |`;
const lines = [
  "## Runner start and server shutdown (`npm run bench:shutdown`)",
  "",
  `On PGlite, 2 cores shared with other work (load average ${load} at the end; ${when} UTC), ${STARTS} times each:`,
  "",
  "| What | median | range |",
  "|---|---:|---:|",
  row("a runner process alone, from the bundle (`node .next/runner/main.mjs`), to its first line", bundled),
  row("the same through tsx (`node --import tsx lib/runner-process/main.ts`, as before issue #36)", compiled),
  row("a server's embedded runner: from `/api/health` answering to the runner online", online),
  row("SIGTERM, one event stream open, no agent: until the server and its runner are gone", idleStops),
  `| SIGTERM, an agent mid-run, RUNNER_GRACE_SECONDS=5: until all are gone (the run handed back) | ${busyStop} ms | one run |`,
];
writeBenchSection("shutdown", lines);
console.log(lines.join("\n"));
process.exit(0);

/** A runner process with a board URL nobody answers: until it logs that it has started. */
async function runnerStart(args) {
  const started = performance.now();
  const child = spawn(process.execPath, [...args, "--url", "http://127.0.0.1:9", "--token", "bench"], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise((resolve) => child.stdout.on("data", (chunk) => String(chunk).includes(" capacity ") && resolve()));
  const ms = Math.round(performance.now() - started);
  child.kill("SIGKILL");
  return ms;
}

async function serve(env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-shutdown-"));
  const server = await startServer({
    dataDir,
    label: "bench-shutdown",
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...env },
  });
  const healthy = performance.now();
  const call = benchClient(server.url);
  const token = (await call("POST", "/api/auth/login", ADMIN)).body.access_token;
  while (!(await call("GET", "/api/runners", undefined, token)).body.some((runner) => runner.status === "online")) await sleep(20);
  const onlineMs = Math.round(performance.now() - healthy);
  const wsId = (await call("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
  const stop = server.stop;
  return {
    server: { ...server, stop: async () => (await stop(), fs.rmSync(dataDir, { recursive: true, force: true })) },
    call,
    token,
    wsId,
    onlineMs,
  };
}

/** SIGTERM to the server: until it and every process it started are gone (ms). */
async function terminate(server) {
  const tree = descendants(server.child.pid);
  const sent = performance.now();
  server.child.kill("SIGTERM");
  while (tree.some(alive)) await sleep(20);
  return Math.round(performance.now() - sent);
}

function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
