// The log-ingestion half of `npm run bench:runners` (docs/runners.md; issue #23's goals): 20 command
// agents at once, each printing 200 lines a second for 30 s (scripts/bench/log-printer.mjs), across
// 2 runner processes on this machine, the server running no agent itself (RUNNER_EMBEDDED=false).
// Measured meanwhile:
// - log lag: a line printed until a reader sees it the way the run view does: the workspace's event
//   stream (GET …/events), whose execution.log events carry a batch's entries when they are few,
//   and the log endpoint from its cursor when they are not (or one was missed). Every run's lines;
// - the server process's CPU (utime + stime from /proc/<pid>/stat) per 1,000 entries stored;
// - the board column page (GET …/board/column/in_progress, what the board loads) p50/p99, while the
//   agents print and idle before.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { root } from "../lib/build-state.mjs";
import { benchClient, until } from "../lib/bench-report.mjs";
import { startServer } from "../lib/server.mjs";
import { timeRequests } from "../lib/time-requests.mjs";

const AGENTS = 20;
const RUNNERS = 2;
const LINES_PER_SECOND = 200;
const SECONDS = Number(process.env.BENCH_LOG_SECONDS ?? 30);
const ADMIN = { username: "admin", password: "bench-admin-password" };
const CLK_TCK = 100;

/** `fullSpeed`: the agents print 8,000-character lines as fast as they can, against a cap of FULL_SPEED_MAX_BYTES each. */
export const FULL_SPEED_MAX_BYTES = Number(process.env.BENCH_LOG_MAX_BYTES ?? 10 * 1024 * 1024);

export async function benchLogIngestion(kind, databaseUrl, { fullSpeed = false } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-logs-"));
  const printer = path.join(root, "scripts", "bench", "log-printer.mjs");
  const env = {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    RUNNER_EMBEDDED: "false",
    AGENT_COMMAND: `${process.execPath} ${printer}`,
    // Its runners run unsandboxed (AGENT_SANDBOX=off, below): the server must hand them jobs.
    RUNNERS_REQUIRE_SANDBOX: "false",
  };
  // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the server, written there when it stops.
  const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = await startServer({ databaseUrl, dataDir, label: `bench-logs-${kind}`, env, nodeArgs });
  const runners = [];
  try {
    const api = benchClient(server.url);
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench-logs" }, token)).body.id;
    // A board with something on it: 100 tasks in progress (the column page reads them).
    const tasks = [];
    for (let i = 0; i < 100; i++) {
      tasks.push((await api("POST", `/api/workspaces/${ws}/tasks`, { title: `busy ${i}`, status: "in_progress" }, token)).body);
    }
    for (let i = 0; i < RUNNERS; i++) {
      const registered = (await api("POST", "/api/runners", { name: `logs-${i}`, capacity: AGENTS / RUNNERS }, token)).body;
      runners.push(
        spawn(
          process.execPath,
          ["scripts/runner.mjs", "--url", server.url, "--token", registered.token, "--capacity", String(AGENTS / RUNNERS)],
          {
            cwd: root,
            // The sandbox's start-up is measured elsewhere (bench:sandbox); here, ingestion only.
            env: {
              ...process.env,
              AGENT_SANDBOX: "off",
              LINES_PER_SECOND: String(LINES_PER_SECOND),
              SECONDS_TO_PRINT: String(SECONDS),
              ...(fullSpeed ? { FULL_SPEED: "1", AGENT_LOG_MAX_BYTES: String(FULL_SPEED_MAX_BYTES) } : {}),
            },
            stdio: "ignore",
          },
        ),
      );
    }
    await until(
      async () => (await api("GET", "/api/runners", undefined, token)).body.filter((r) => r.status === "online").length === RUNNERS,
      200,
    );

    const column = `/api/workspaces/${ws}/board/column/in_progress?limit=50`;
    for (let i = 0; i < 20; i++) await api("GET", column, undefined, token); // warm the route up
    const idle = await timeRequests(server.url, column, token, 10_000);

    const cpuBefore = cpuTicks(server.child.pid);
    const runnersBefore = runners.reduce((sum, runner) => sum + cpuTicks(runner.pid), 0);
    const machineBefore = machineTicks();
    const started = [];
    const lags = [];
    // Reading from before the first run starts: every line of every run is measured.
    const reader = readLive(server.url, api, ws, token, lags);
    await reader.open;
    for (let i = 0; i < AGENTS; i++) {
      started.push((await api("POST", `/api/workspaces/${ws}/tasks/${tasks[i].id}/runs`, {}, token)).body.id);
    }
    const busy = timeRequests(server.url, column, token, SECONDS * 1000 - 5000, 2500);
    // How long this thread (the reader's) was kept from its turns meanwhile: what timing the column page here would add.
    const readerLoop = monitorEventLoopDelay({ resolution: 10 });
    readerLoop.enable();
    // Progress and the end come from the event stream too (execution.updated), so the bench adds
    // no requests of its own while the column page is timed.
    await until(
      async () => {
        const over = started.filter((id) => reader.ended(id)).length;
        console.log(`${new Date().toISOString()} read ${started.reduce((sum, id) => sum + reader.has(id), 0)} entries; ${over} runs over`);
        return over === started.length;
      },
      2000,
      SECONDS * 1000 + 300_000,
    );
    await until(async () => {
      const rows = await Promise.all(started.map((id) => api("GET", `/api/workspaces/${ws}/executions/${id}`, undefined, token)));
      return rows.every((row) => reader.has(row.body.id) >= row.body.line_count);
    }, 200);
    reader.stop();
    readerLoop.disable();
    const cpuAfter = cpuTicks(server.child.pid);
    const runnersAfter = runners.reduce((sum, runner) => sum + cpuTicks(runner.pid), 0);
    const machineAfter = machineTicks();
    const meanwhile = await busy;
    const rows = await Promise.all(started.map((id) => api("GET", `/api/workspaces/${ws}/executions/${id}`, undefined, token)));
    const entries = rows.reduce((sum, row) => sum + row.body.line_count, 0);
    const statuses = [...new Set(rows.map((row) => row.body.status))];
    const cpuSeconds = (cpuAfter - cpuBefore) / CLK_TCK;
    const result = {
      kind,
      entries,
      statuses,
      lagP50: percentile(lags, 0.5),
      lagP99: percentile(lags, 0.99),
      lagMax: Math.max(...lags),
      lagSamples: lags.length,
      cpuPerThousand: (cpuSeconds * 1000) / Math.max(1, entries),
      cpuSeconds,
      runnerCpuSeconds: (runnersAfter - runnersBefore) / CLK_TCK,
      // How busy the whole machine was meanwhile (agents, runners, database, server, this bench): 1 = every core.
      machineBusy: (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total),
      idleP50: percentile(idle, 0.5),
      idleP99: percentile(idle, 0.99),
      busyP50: percentile(meanwhile, 0.5),
      busyP99: percentile(meanwhile, 0.99),
      busyCount: meanwhile.length,
      readerDelayP99: readerLoop.percentile(99) / 1e6,
    };
    console.log(`${kind}: log ingestion ${JSON.stringify(result)}`);
    return result;
  } finally {
    for (const runner of runners) runner.kill("SIGTERM");
    await Promise.all(
      runners.map((runner) => new Promise((resolve) => (runner.exitCode !== null ? resolve() : runner.once("exit", resolve)))),
    );
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The run view's way of reading logs: the workspace event stream, each execution.log's entries when
 * it carries them, else (too many for the event, or a batch missed) the log endpoint from where it
 * is. Each `output` line's lag is the moment it is seen − its print time (`t=<ms>` it starts with).
 */
function readLive(url, api, ws, token, lags) {
  const have = new Map();
  const ended = new Set();
  const fetching = new Map();
  const abort = new AbortController();
  const take = (entries) => {
    const seen = Date.now();
    for (const entry of entries) {
      const printed = entry.type === "output" ? Number(/^t=(\d+)/.exec(entry.update.text ?? "")?.[1]) : NaN;
      if (Number.isFinite(printed)) lags.push(seen - printed);
    }
  };
  const fetchFrom = (id, lineCount) => {
    if (fetching.has(id)) return;
    const job = (async () => {
      while ((have.get(id) ?? 0) < lineCount) {
        const page = (
          await api("GET", `/api/workspaces/${ws}/executions/${id}/log?offset=${have.get(id) ?? 0}&limit=10000`, undefined, token)
        ).body;
        take(page.entries);
        have.set(id, page.next_offset);
        if (page.entries.length === 0) break;
      }
    })().finally(() => fetching.delete(id));
    fetching.set(id, job);
  };
  const apply = (execution) => {
    if (!["queued", "running"].includes(execution.status)) ended.add(execution.id);
    const at = have.get(execution.id) ?? 0;
    const log = execution.log;
    if (log && log.offset <= at && !fetching.has(execution.id)) {
      take(log.entries.filter((entry) => entry.seq >= at));
      have.set(execution.id, Math.max(at, log.offset + log.entries.length));
    } else if (execution.line_count > at) fetchFrom(execution.id, execution.line_count);
  };
  const open = fetch(`${url}/api/workspaces/${ws}/events`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: abort.signal,
  }).then((response) => {
    if (response.status !== 200) throw new Error(`event stream: HTTP ${response.status}`);
    void (async () => {
      const decoder = new TextDecoder();
      let text = "";
      try {
        for await (const chunk of response.body) {
          text += decoder.decode(chunk, { stream: true });
          for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
            const block = text.slice(0, end).split("\n");
            text = text.slice(end + 2);
            const type = block.find((line) => line.startsWith("event: "))?.slice(7);
            const data = block
              .filter((line) => line.startsWith("data: "))
              .map((line) => line.slice(6))
              .join("\n");
            if (type === "execution.log" || type === "execution.updated") apply(JSON.parse(data).data);
          }
        }
      } catch (error) {
        if (!abort.signal.aborted) throw error;
      }
    })();
  });
  return { open, has: (id) => have.get(id) ?? 0, ended: (id) => ended.has(id), stop: () => abort.abort() };
}

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted from after the command name (field 3 is index 0).
  return Number(fields[11]) + Number(fields[12]);
}

/** All cores' busy and total ticks since boot (/proc/stat's first line). */
function machineTicks() {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { total, busy: total - fields[3] - (fields[4] ?? 0) };
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}
