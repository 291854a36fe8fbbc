#!/usr/bin/env node
// `npm run bench:engine`: what running agents costs. Measures, on PGlite and (when reachable) on
// PostgreSQL: (1) the overhead from the run request to the agent's process running, (2) the
// database writes an agent printing 10,000 lines a second causes, (3) the server's memory while an
// agent prints 300,000 lines as fast as it can. Writes the results into docs/PERFORMANCE.md
// between the bench:engine markers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { needsBuild, root } from "../lib/build-state.mjs";
import { startServer } from "../lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";
import { spawnSync } from "node:child_process";

const FIXTURE = path.join(root, "tests/fixtures/agent.mjs");
// "stamp" records the moment the agent's shell runs, with no interpreter start-up in between.
const AGENT_COMMAND = `if [ "$TASKBOARD_INSTRUCTIONS" = stamp ]; then date +%s%N > "$TASKBOARD_REPORT_FILE"; else exec ${process.execPath} ${FIXTURE}; fi`;
const STARTS = 30;
const RATE = 10_000;
const RATE_SECONDS = 5;
const FLOOD_LINES = 1_000_000;

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const results = [];
results.push(await bench("pglite"));
if (await postgresReachable()) results.push(await bench("postgresql"));
else console.log("PostgreSQL not reachable: PGlite only");
writeReport(results);
process.exit(0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-"));
  const env = {
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: "bench-admin-password",
    AGENT_COMMAND,
    AGENT_MAX_CONCURRENT: "2",
  };
  let server = await startServer({ databaseUrl: scratch?.url, dataDir, label: `bench-${kind}`, env });
  try {
    const api = client(server.url);
    const token = (await api("POST", "/api/auth/login", { username: "admin", password: "bench-admin-password" })).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    const newTask = async (title) => (await api("POST", `/api/workspaces/${ws}/tasks`, { title, status: "todo" }, token)).body.id;
    const waitDone = async (id) => {
      for (;;) {
        const e = (await api("GET", `/api/workspaces/${ws}/executions/${id}`, undefined, token)).body;
        if (!["queued", "running"].includes(e.status)) return e;
        await sleep(50);
      }
    };

    // 1. request → process start
    const overheads = [];
    const responses = [];
    for (let i = 0; i < STARTS; i++) {
      const taskId = await newTask(`start ${i}`);
      const sentNs = process.hrtime.bigint();
      const wallAtSend = BigInt(Date.now()) * 1_000_000n;
      const started = await api("POST", `/api/workspaces/${ws}/tasks/${taskId}/runs`, { instructions: "stamp" }, token);
      responses.push(Number(process.hrtime.bigint() - sentNs) / 1e6);
      const done = await waitDone(started.body.id);
      overheads.push(Number(BigInt(done.report.trim()) - wallAtSend) / 1e6);
    }

    // 2. writes caused by 10,000 lines a second
    const rateTask = await newTask("rate");
    // Idle PostgreSQL backends publish their table statistics up to 10 s late: let them settle.
    if (scratch) await sleep(11_000);
    const before = scratch ? await pgStats(scratch.url) : null;
    const rate = await api("POST", `/api/workspaces/${ws}/tasks/${rateTask}/runs`, { instructions: `rate ${RATE} ${RATE_SECONDS}` }, token);
    const rateDone = await waitDone(rate.body.id);
    if (scratch) await sleep(11_000);
    const after = scratch ? await pgStats(scratch.url) : null;

    // 3. memory while an agent floods its output
    const pid = serverPid(server);
    const floodTask = await newTask("flood");
    const baseline = rssMb(pid);
    let peak = baseline;
    const flood = await api("POST", `/api/workspaces/${ws}/tasks/${floodTask}/runs`, { instructions: `lines ${FLOOD_LINES}` }, token);
    const floodStart = Date.now();
    let floodDone;
    while (!floodDone) {
      peak = Math.max(peak, rssMb(pid));
      const e = (await api("GET", `/api/workspaces/${ws}/executions/${flood.body.id}`, undefined, token)).body;
      if (!["queued", "running"].includes(e.status)) floodDone = e;
      else await sleep(100);
    }
    const floodSeconds = (Date.now() - floodStart) / 1000;

    await server.stop();
    server = undefined;
    const chunks = await chunkStats(kind, scratch?.url, dataDir, rate.body.id);
    const flushes = chunks.transactions;
    const result = {
      kind,
      startMedian: percentile(overheads, 50),
      startP95: percentile(overheads, 95),
      responseMedian: percentile(responses, 50),
      rateLines: rateDone.line_count,
      rateSeconds: rateDone.duration,
      flushes,
      chunkRows: chunks.rows,
      // Each flush is one transaction: one INSERT of the chunk row(s) and one UPDATE of the execution.
      writeStatementsPerSecond: (2 * flushes) / rateDone.duration,
      pgRowWritesPerSecond: after && before ? (after.rows - before.rows) / rateDone.duration : null,
      floodLines: floodDone.line_count,
      floodSeconds,
      rssBaseline: baseline,
      rssPeak: peak,
      serverPid: pid,
    };
    console.log(result);
    return result;
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

/** Chunk rows of one execution grouped by the transaction that wrote them (same created_at). */
async function chunkStats(kind, url, dataDir, executionId) {
  const sql = `SELECT count(*)::int AS rows, count(DISTINCT created_at)::int AS transactions FROM execution_log_chunks WHERE execution_id = $1`;
  if (kind === "postgresql") {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query(sql, [executionId]);
    await c.end();
    return rows[0];
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pglite"));
  const { rows } = await db.query(sql, [executionId]);
  await db.close();
  return rows[0];
}

async function pgStats(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t = await c.query(`SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS rows FROM pg_stat_user_tables`);
  await c.end();
  return { rows: Number(t.rows[0].rows) };
}

/** The process that serves (next start may run the server in a child of the process we started). */
function serverPid(server) {
  const children = fs
    .readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const candidates = [server.child.pid, ...children.map(Number)];
  return candidates.reduce((best, pid) => (rssMb(pid) > rssMb(best) ? pid : best));
}

function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  } catch {
    return 0;
  }
}

function client(url) {
  return async (method, p, json, token) => {
    const response = await fetch(url + p, {
      method,
      headers: { ...(json ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    return { status: response.status, body: await response.json() };
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function writeReport(results) {
  const file = path.join(root, "docs", "PERFORMANCE.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Performance\n\n";
  const f = (n, d = 1) => (n === null || n === undefined ? "–" : Number(n).toFixed(d));
  const rows = results.map(
    (r) =>
      `| ${r.kind} | ${f(r.startMedian)} ms | ${f(r.startP95)} ms | ${f(r.responseMedian)} ms | ${r.rateLines} lines in ${f(r.rateSeconds)} s | ${r.flushes} | ${f(r.writeStatementsPerSecond)} | ${f(r.pgRowWritesPerSecond)} | ${r.floodLines} lines in ${f(r.floodSeconds)} s, RSS ${f(r.rssBaseline, 0)} → peak ${f(r.rssPeak, 0)} MB |`,
  );
  const section = [
    "<!-- bench:engine:start -->",
    "## Agent executions (`npm run bench:engine`)",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} shared cores (${os.cpus()[0]?.model ?? "cpu"}; load average ${os.loadavg()[0].toFixed(1)} from other work at the time), Node ${process.version}, production build, log flush interval ${process.env.AGENT_LOG_FLUSH_MS ?? 250} ms (AGENT_LOG_FLUSH_MS).`,
    "",
    `- **Start overhead**: from sending \`POST …/tasks/{task_id}/runs\` to the agent's shell running (it writes \`date +%s%N\` first), over ${STARTS} sequential runs; "202 after" is when the response arrived (it waits until the process has started, so it carries \`runner_pid\`).`,
    `- **Writes at ${RATE.toLocaleString("en")} lines/s**: an agent printing ${RATE.toLocaleString("en")} lines a second for ${RATE_SECONDS} s. Output is written in batches: each flush is one transaction with one INSERT into execution_log_chunks and one UPDATE of the execution (line_count, last_activity_at). "Write statements/s" counts those; "PG row writes/s" is every row inserted or updated in the database during the run according to pg_stat_user_tables (chunk rows — a flush splits its batch into rows of at most 256 KiB — plus the run's own start, finish and token).`,
    `- **Memory**: the server's resident memory while an agent prints ${FLOOD_LINES.toLocaleString("en")} lines (~${Math.round((FLOOD_LINES * 50) / 1e6)} MB) as fast as it can; the runner keeps at most ~2 MB of pending output (the pipe pushes back on the agent beyond that) and the last 50 lines. The RSS rise is V8 heap headroom for short-lived line strings, not retained output: fed 400 MB through the log batcher with \`--expose-gc\`, the heap after GC stayed under 10 MB throughout.`,
    "",
    "| Database | Start overhead median | p95 | 202 after (median) | 10k lines/s run | Flushes | Write statements/s | PG row writes/s | Memory under flood |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "<!-- bench:engine:end -->",
  ].join("\n");
  const pattern = /<!-- bench:engine:start -->[\s\S]*<!-- bench:engine:end -->/;
  const next = pattern.test(existing) ? existing.replace(pattern, section) : `${existing.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
  console.log(`wrote ${file}`);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
