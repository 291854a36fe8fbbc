#!/usr/bin/env node
// `npm run bench:writes`: many writers at once (issue #36, part 2). WRITERS concurrent clients each
// repeat the mix create → rename → move → question → answer for DURATION seconds, on PostgreSQL and
// on the embedded database, against the production build; first as the API answers by default
// (right after the write's own transaction), then again with `Prefer: wait=reactions` (the answer
// waits for the reactions; docs/api.md). `/api/health` is measured on the same server in the same
// run, alone and while the writers write. Every acknowledged write is read back: a rename at once
// over another request (it must be there: answered means committed), and every task at the end.
// Writes its table into docs/PERFORMANCE.md between the bench:writes markers.
// BENCH_DATABASES=postgresql (or pglite), BENCH_DURATION, BENCH_PASSES=default,wait and
// BENCH_NO_REPORT=1 measure a part and leave docs/PERFORMANCE.md as it is; BENCH_CPU_PROF=<dir>
// keeps the server's CPU profile.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { needsBuild, root } from "../lib/build-state.mjs";
import { benchClient, writeBenchSection } from "../lib/bench-report.mjs";
import { startServer } from "../lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";
import { timeRequests } from "../lib/time-requests.mjs";

const DURATION = Number(process.env.BENCH_DURATION) || 20;
const WRITERS = Number(process.env.BENCH_WRITERS) || 50;
const DATABASES = (process.env.BENCH_DATABASES || "postgresql,pglite").split(",");
const PASSES = (process.env.BENCH_PASSES || "default,wait,paced").split(",");
// The paced pass: the same writers, each starting a write every WRITERS / PACED_RATE seconds, so the
// server is offered PACED_RATE writes a second rather than as many as it can answer.
const PACED_RATE = Number(process.env.BENCH_PACED_RATE) || 100;
const PARTIAL = [
  "BENCH_DATABASES",
  "BENCH_PASSES",
  "BENCH_DURATION",
  "BENCH_WRITERS",
  "BENCH_PACED_RATE",
  "BENCH_NO_REPORT",
  "BENCH_CPU_PROF",
].some((name) => process.env[name]);
const KINDS = ["create", "rename", "move", "question", "answer"];
const MOVES = ["in_progress", "in_review", "done", "todo"];
const ADMIN = { username: "admin", password: "bench-admin-password" };
const WAIT = { prefer: "wait=reactions" };

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}
const loadBefore = os.loadavg();
const results = [];
for (const kind of DATABASES) {
  if (kind === "postgresql" && !(await postgresReachable())) continue;
  results.push(...(await bench(kind)));
}
const report = section(results, loadBefore, os.loadavg());
console.log(report.join("\n"));
if (!PARTIAL) writeBenchSection("writes", report);
process.exit(results.some((r) => r.stale + r.lost + r.errors > 0) ? 1 : 0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
  // BENCH_CPU_PROF=<dir>: the server's CPU profile, written there when it stops (open it in Chrome's DevTools).
  const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = await startServer({ databaseUrl: scratch?.url, label: `bench-writes-${kind}`, env, nodeArgs });
  try {
    const api = benchClient(server.url);
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const health = await autocannon({ url: `${server.url}/api/health`, connections: WRITERS, duration: 5 });
    const rows = [];
    for (const pass of PASSES) {
      const ws = (await api("POST", "/api/workspaces", { name: `bench ${pass}` }, token)).body.id;
      const row = await measure(
        server,
        scratch,
        token,
        ws,
        pass === "wait" ? WAIT : {},
        pass === "paced" ? (WRITERS / PACED_RATE) * 1000 : 0,
      );
      rows.push({ db: kind, pass, healthRps: health.requests.average, ...row });
      console.log(JSON.stringify(rows.at(-1)));
    }
    return rows;
  } finally {
    await server.stop();
    await scratch?.drop();
  }
}

async function measure(server, scratch, token, ws, extra, paceMs) {
  const base = `/api/workspaces/${ws}`;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra };
  const times = Object.fromEntries(KINDS.map((k) => [k, []]));
  const statements = Object.fromEntries(KINDS.map((k) => [k, []]));
  const figures = { acknowledged: 0, errors: 0, stale: 0, lost: 0, readBacks: 0 };
  const expected = new Map(); // task id → the title its last acknowledged rename gave it
  const send = async (kind, method, urlPath, body) => {
    const at = performance.now();
    const response = await fetch(server.url + base + urlPath, { method, headers, body: body && JSON.stringify(body) });
    const text = await response.text();
    if (response.status >= 300) {
      figures.errors++;
      console.error(`${kind}: ${response.status} ${text.slice(0, 200)}`);
      return null;
    }
    times[kind].push(performance.now() - at);
    statements[kind].push(Number(response.headers.get("x-sql-statements")));
    figures.acknowledged++;
    return JSON.parse(text);
  };
  const deadline = Date.now() + DURATION * 1000;
  const writer = async (w) => {
    // Paced writers start spread over one period, not all at once.
    const began = performance.now() + (paceMs * w) / WRITERS;
    if (paceMs) await new Promise((resolve) => setTimeout(resolve, (paceMs * w) / WRITERS));
    let task = null;
    let question = null;
    for (let n = 0; Date.now() < deadline; n++) {
      if (paceMs && n > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, began + n * paceMs - performance.now())));
      const kind = KINDS[n % KINDS.length];
      if (kind === "create") task = (await send(kind, "POST", "/tasks", { title: `w${w}-${n}`, status: "backlog" })) ?? task;
      if (!task) continue;
      if (kind === "rename") {
        const title = `w${w}-${n} renamed`;
        if (await send(kind, "PATCH", `/tasks/${task.id}`, { title })) {
          expected.set(task.id, title);
          // Another request, at once: what was answered must be there.
          if (n % 4 === 1) {
            const read = await fetch(`${server.url}${base}/tasks/${task.id}`, { headers });
            figures.readBacks++;
            if ((await read.json()).title !== title) figures.stale++;
          }
        }
      }
      if (kind === "move") await send(kind, "POST", `/tasks/${task.id}/move`, { column: MOVES[Math.floor(n / 5) % MOVES.length] });
      if (kind === "question") question = await send(kind, "POST", "/questions", { task_id: task.id, content: `question ${n}?` });
      if (kind === "answer" && question) await send(kind, "POST", `/questions/${question.id}/answer`, { answer: "yes" });
    }
  };
  const cpu0 = treeCpuMs(server.child.pid);
  const xact0 = await transactions(scratch);
  const started = performance.now();
  const healthDuringWrites = timeRequests(server.url, "/api/health", token, DURATION * 1000 - 1000, 500);
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const seconds = (performance.now() - started) / 1000;
  const healthTimes = await healthDuringWrites;
  const cpuMs = treeCpuMs(server.child.pid) - cpu0;
  // The reactions finish what the writes started, and PostgreSQL's statistics reach its views.
  await new Promise((resolve) => setTimeout(resolve, scratch ? 11_000 : 2_000));
  const xacts = (await transactions(scratch)) - xact0;
  figures.lost = await readBack(server.url, base, headers, expected);
  const writes = figures.acknowledged;
  return {
    writes,
    writesPerSecond: writes / seconds,
    perKind: Object.fromEntries(KINDS.map((k) => [k, { n: times[k].length, p50: pct(times[k], 0.5), p99: pct(times[k], 0.99) }])),
    all: { p50: pct(Object.values(times).flat(), 0.5), p99: pct(Object.values(times).flat(), 0.99) },
    statements: Object.fromEntries(KINDS.map((k) => [k, pct(statements[k], 0.5)])),
    healthDuring: { p50: pct(healthTimes, 0.5), p99: pct(healthTimes, 0.99) },
    cpuMsPerWrite: cpuMs / writes,
    transactionsPerWrite: xacts ? xacts / writes : null,
    ...figures,
  };
}

/** Acknowledged renames missing from the final state (each writer renames only its own tasks, one at a time). */
async function readBack(url, base, headers, expected) {
  const ids = [...expected.keys()];
  let lost = 0;
  const worker = async () => {
    for (let id = ids.pop(); id; id = ids.pop()) {
      const read = await fetch(`${url}${base}/tasks/${id}`, { headers: { authorization: headers.authorization } });
      if (read.status !== 200 || (await read.json()).title !== expected.get(id)) lost++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return lost;
}

/** PostgreSQL's committed and rolled-back transactions in the scratch database so far (null on PGlite). */
async function transactions(scratch) {
  if (!scratch) return null;
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** CPU time of a process and its descendants (the server and its embedded runner), in ms. */
function treeCpuMs(pid) {
  let total = 0;
  const tick = 1000 / 100; // USER_HZ
  const visit = (p) => {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * tick;
      for (const thread of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${thread}/children`, "utf8").trim();
        for (const child of children ? children.split(" ") : []) visit(child);
      }
    } catch {
      // the process ended meanwhile
    }
  };
  visit(pid);
  return total;
}

function pct(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

function section(rows, before, after) {
  const pass = (r) =>
    ({ wait: "`Prefer: wait=reactions`", paced: `default, paced: ${PACED_RATE} writes/s offered` })[r.pass] ?? "default (answer at commit)";
  const kinds = (r) => KINDS.map((k) => `${r.perKind[k].p50} / ${r.perKind[k].p99}`).join(" | ");
  const verdict = (ok) => (ok ? "met" : "missed");
  const goals = rows
    .filter((r) => r.pass === "default")
    .map((r) => {
      const floor = r.db === "postgresql" ? 3000 : 1500;
      const paced = rows.find((p) => p.db === r.db && p.pass === "paced");
      const p99 =
        r.db === "postgresql"
          ? `, write p99 ${r.all.p99} ms (goal ≤ 100: ${verdict(r.all.p99 <= 100)}` +
            (paced ? `; ${paced.all.p99} ms when offered ${PACED_RATE} writes/s: ${verdict(paced.all.p99 <= 100)})` : ")")
          : "";
      return `**${r.db}**: ${r.writes} acknowledged writes in ${DURATION} s (goal ≥ ${floor}: ${verdict(r.writes >= floor)})${p99}.`;
    });
  return [
    "## Many writers at once (`npm run bench:writes`)",
    "",
    `Measured on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} cores, production build; load average ${before.map((l) => l.toFixed(2)).join(" ")} before, ${after.map((l) => l.toFixed(2)).join(" ")} after. ` +
      `${WRITERS} writers for ${DURATION} s each pass, each repeating create → rename → move (to In progress, In review, Done or To do in turn) → question → answer, ` +
      `as fast as answered (the first two passes) or paced so that together they offer ${PACED_RATE} writes/s (the third). ` +
      `Health: \`GET /api/health\` at ${WRITERS} connections for 5 s on the same server before the passes; "health during" is one request at a time while the writers write. ` +
      `CPU: the server's process tree, per acknowledged write. Transactions: PostgreSQL's, server-wide (requests and background work), per acknowledged write. ` +
      `Latencies in ms, p50 / p99.`,
    "",
    "| database | pass | acknowledged writes | writes/s | health req/s | health during p50 / p99 | all writes | create | rename | move | question | answer | SQL per request (create, rename, move, question, answer) | CPU ms per write | transactions per write | read-backs stale / lost |",
    "|---|---|---:|---:|---:|---|---|---|---|---|---|---|---|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.db} | ${pass(r)} | ${r.writes} | ${Math.round(r.writesPerSecond)} | ${Math.round(r.healthRps)} | ${r.healthDuring.p50} / ${r.healthDuring.p99} | ${r.all.p50} / ${r.all.p99} | ${kinds(r)} | ` +
        `${KINDS.map((k) => r.statements[k]).join(", ")} | ${r.cpuMsPerWrite.toFixed(1)} | ${r.transactionsPerWrite?.toFixed(1) ?? "–"} | ${r.stale} of ${r.readBacks} / ${r.lost} |`,
    ),
    "",
    ...goals,
  ];
}
