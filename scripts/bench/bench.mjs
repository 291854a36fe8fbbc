// `npm run bench`: the board API under load on a 100,000-task workspace (20,000 per column, with
// projects, questions and runs), on PostgreSQL and on the embedded database, against the
// production build. Prints a table and writes it into docs/PERFORMANCE.md between the
// `bench:api` markers. Not part of `npm test`: it takes a few minutes and wants a quiet machine.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { needsBuild, root } from "../lib/build-state.mjs";
import { startServer } from "../lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";
import { ANALYZE_STATEMENTS, queuedRunsSql, seedSql } from "../lib/bench-seed.mjs";
import { markdownTable, writeBetweenMarkers } from "../lib/bench-report.mjs";
import { wholeBoard } from "../lib/bench-whole-board.mjs";

const DURATION = Number(process.env.BENCH_DURATION) || 10;
const CONNECTIONS = 20;
const SEQUENTIAL = 200; // requests of the one-connection pass
const BIG = 20_000; // tasks per column
const SMALL = 200;
const QUEUED = 16; // cards of the "waiting" workspace's To do column whose runs wait for a runner
const CARDS = 800; // tasks per column of the "4,000 cards" workspace (issue #36's side-by-side with Planka)
const CARD_PAGE = 500; // the compact column page's maximum (MAX_CARD_PAGE)
const WHOLE_BOARD_ROUNDS = 20;
const ADMIN = { username: "bench-admin", password: crypto.randomBytes(12).toString("hex") };
// For iterating on one thing: BENCH_DATABASES=postgresql (or pglite) and BENCH_ONLY=<regex of row
// names> measure a part only, and then docs/PERFORMANCE.md is left as it is.
const DATABASES = (process.env.BENCH_DATABASES || "postgresql,pglite").split(",");
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const PARTIAL = Boolean(process.env.BENCH_DATABASES || ONLY);

if (needsBuild()) {
  console.log("building…");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const rows = [];
const notes = [];
const started = Date.now();
if (DATABASES.includes("postgresql")) {
  if (await postgresReachable()) rows.push(...(await benchPostgres()));
  else notes.push("PostgreSQL was not reachable: only the embedded database was measured.");
}
if (DATABASES.includes("pglite")) rows.push(...(await benchPglite()));

const table = markdownTable(rows);
console.log(`\n${table}\n`);
if (PARTIAL) process.exit(0);
const summary = goals(rows);
console.log(summary);
writeBetweenMarkers(
  path.join(root, "docs", "PERFORMANCE.md"),
  [
    `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? "?"}; ` +
      `Node ${process.version}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per row; total run ${Math.round((Date.now() - started) / 1000)} s).`,
    `Workspace: ${BIG * 5} tasks (${BIG} per column), 20 projects, questions on 10% of tasks (half open), 3 runs on 20%, the owner assigned to 25%; ` +
      `"small" is a ${SMALL * 5}-task workspace seeded the same way, and the "waiting" one another with queued runs on its first ${QUEUED} To do cards that no runner takes. Column requests are \`GET /api/workspaces/{id}/board/column/todo\`. ` +
      `"alone" columns: the same request ${SEQUENTIAL} times over one connection (latency without queueing).`,
    "",
    table,
    "",
    summary,
    ...notes.map((note) => `\n${note}`),
  ].join("\n"),
);
console.log("written to docs/PERFORMANCE.md");
process.exit(0);

async function benchPostgres() {
  const scratch = await createScratchDatabase("taskboard_bench");
  const server = await startServer({ databaseUrl: scratch.url, label: "bench-pg", env: adminEnv() });
  try {
    const { token, big, small, cards, waiting } = await prepare(server.url);
    const client = new pg.Client({ connectionString: scratch.url });
    client.on("error", () => {}); // the drop below may cut it; the query's own error is what counts
    await client.connect();
    const t0 = Date.now();
    try {
      await client.query(seedSql(big, BIG));
      await client.query(seedSql(small, SMALL));
      await client.query(seedSql(cards, CARDS));
      await client.query(seedSql(waiting, SMALL) + queuedRunsSql(waiting, QUEUED));
      for (const statement of ANALYZE_STATEMENTS) await client.query(statement);
      // Write the seed out now, so the checkpointer does not do it during the first measurements.
      await client.query("CHECKPOINT");
    } finally {
      await client.end();
    }
    console.log(`postgresql: seeded in ${Date.now() - t0} ms`);
    return await drive("PostgreSQL", server.url, token, { big, small, cards, waiting });
  } finally {
    await server.stop();
    await scratch.drop();
  }
}

async function benchPglite() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-pglite-"));
  try {
    // The server migrates the fresh directory and makes the user and workspaces; it must be
    // stopped while this process seeds (one process per PGlite directory).
    let server = await startServer({ dataDir, label: "bench-pglite", env: adminEnv() });
    const { token, big, small, cards, waiting } = await prepare(server.url);
    await server.stop();
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(path.join(dataDir, "pglite"));
    await db.waitReady;
    const t0 = Date.now();
    await db.exec(seedSql(big, BIG));
    await db.exec(seedSql(small, SMALL));
    await db.exec(seedSql(cards, CARDS));
    await db.exec(seedSql(waiting, SMALL) + queuedRunsSql(waiting, QUEUED));
    for (const statement of ANALYZE_STATEMENTS) await db.exec(statement);
    await db.close();
    console.log(`pglite: seeded in ${Date.now() - t0} ms`);
    server = await startServer({ dataDir, label: "bench-pglite", env: adminEnv() });
    try {
      return await drive("embedded (PGlite)", server.url, token, { big, small, cards, waiting });
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function prepare(url) {
  const login = await post(url, "/api/auth/login", ADMIN);
  const token = login.access_token;
  const big = (await post(url, "/api/workspaces", { name: "bench 100k" }, token)).id;
  const small = (await post(url, "/api/workspaces", { name: "bench 1k" }, token)).id;
  const cards = (await post(url, "/api/workspaces", { name: "bench 4,000 cards" }, token)).id;
  const waiting = (await post(url, "/api/workspaces", { name: "bench waiting" }, token)).id;
  return { token, big, small, cards, waiting };
}

async function drive(db, url, token, { big, small, cards, waiting }) {
  const column = (ws, query = "") => `/api/workspaces/${ws}/board/column/todo${query}`;
  const targets = [
    ["GET /api/health", "/api/health"],
    ["GET /api/workspaces/{id} (auth + membership only)", `/api/workspaces/${big}`],
    ["column, first page", column(big)],
    // Right after its 100k counterpart, so load from other processes drifts less between the two.
    ["small workspace: column, first page", column(small)],
    ["column, offset 19,980", column(big, "?offset=19980")],
    ["column, sort_by=title", column(big, "?sort_by=title")],
    ["column, sort_by=created_at", column(big, "?sort_by=created_at")],
    ["column, sort_by=priority", column(big, "?sort_by=priority")],
    ["column, sort_by=priority desc, offset 19,980", column(big, "?sort_by=priority&sort_dir=desc&offset=19980")],
    ["GET board (5 columns × 20)", `/api/workspaces/${big}/board`],
    [`GET board, ${QUEUED} cards waiting for a runner (1k workspace)`, `/api/workspaces/${waiting}/board`],
  ];
  if (ONLY) targets.splice(0, targets.length, ...targets.filter(([name], i) => i === 0 || ONLY.test(name)));
  const headers = { authorization: `Bearer ${token}` };
  await load(`${url}/api/workspaces/${big}`, headers, 3); // warm-up (JIT, connection pool, caches)
  const results = [];
  for (const [name, target] of targets) {
    const probe = await fetch(url + target, { headers });
    // The response's size: what a page costs grows with its JSON, so a change in throughput can be told
    // apart from a change in what is sent.
    const text = await probe.text();
    const body = JSON.parse(text);
    if (probe.status !== 200) throw new Error(`${name}: ${probe.status} ${JSON.stringify(body)}`);
    const result = await load(url + target, headers, DURATION);
    // Latency without queueing: one request at a time.
    const alone = await autocannon({ url: url + target, headers, connections: 1, amount: SEQUENTIAL });
    const row = {
      db,
      name,
      statements: probe.headers.get("x-sql-statements") ?? "-",
      bytes: Buffer.byteLength(text),
      rps: result.requests.average,
      mean: result.latency.mean,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx + result.errors + alone.non2xx + alone.errors,
      aloneP50: alone.latency.p50,
      aloneP99: alone.latency.p99,
      items: body.items?.length ?? body.columns?.reduce((sum, column) => sum + column.items.length, 0),
    };
    console.log(
      `${db.padEnd(18)} ${name.padEnd(45)} ${String(Math.round(row.rps)).padStart(6)} req/s  p99 ${row.p99} ms  alone p50 ${row.aloneP50} p99 ${row.aloneP99} ms  sql ${row.statements}  ${row.bytes} B`,
    );
    results.push(row);
  }
  if (!ONLY || ONLY.test("4,000 cards"))
    results.push(
      ...(await wholeBoard({ db, url, headers, workspace: cards, perColumn: CARDS, page: CARD_PAGE, rounds: WHOLE_BOARD_ROUNDS })),
    );
  return results;
}

function load(url, headers, duration) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration });
}

function goals(all) {
  const lines = [];
  for (const db of [...new Set(all.map((r) => r.db))]) {
    const rows = all.filter((r) => r.db === db);
    const get = (name) => rows.find((r) => r.name === name);
    const health = get("GET /api/health");
    const floor = get("GET /api/workspaces/{id} (auth + membership only)");
    const first = get("column, first page");
    const small = get("small workspace: column, first page");
    const columnRows = rows.filter((r) => r.name.startsWith("column"));
    const firstPages = columnRows.filter((r) => !r.name.includes("offset"));
    const worst = (list, key) => list.reduce((a, b) => (b[key] > a[key] ? b : a));
    const share = first.rps / health.rps;
    const meanRatio = first.mean / small.mean;
    const aloneRatio = first.aloneP50 / small.aloneP50;
    const verdict = (ok) => (ok ? "met" : "missed");
    const board = get("GET board (5 columns × 20)");
    const whole = get("4,000 cards: every card, compact pages of 500 one after another (ms per round)");
    const wholeParallel = get("4,000 cards: every card, the five columns at once (ms per round)");
    const p99 = (row) => `${row.p99} ms (${row.name})`;
    lines.push(
      `**${db}**: column first page at ${Math.round(share * 100)}% of /api/health throughput (goal ≥ 60%: ${verdict(share >= 0.6)}; ` +
        `the auth + membership floor alone is at ${Math.round((floor.rps / health.rps) * 100)}%). ` +
        `p99 at ${CONNECTIONS} connections (goal ≤ 50 ms): column first page ${first.p99} ms (${verdict(first.p99 <= 50)}); ` +
        `worst first page of any sort ${p99(worst(firstPages, "p99"))} (${verdict(worst(firstPages, "p99").p99 <= 50)}); ` +
        `worst of all column rows ${p99(worst(columnRows, "p99"))} (${verdict(worst(columnRows, "p99").p99 <= 50)}); ` +
        `one at a time, worst ${worst(columnRows, "aloneP99").aloneP99} ms (${verdict(worst(columnRows, "aloneP99").aloneP99 <= 50)}). ` +
        `100k vs 1k workspace latency ×${meanRatio.toFixed(2)} (mean at ${CONNECTIONS} connections), ×${aloneRatio.toFixed(2)} (p50 one at a time) (goal ≤ 1.3: ${verdict(meanRatio <= 1.3)} / ${verdict(aloneRatio <= 1.3)}). ` +
        `SQL statements per request: column ${first.statements}, board ${board.statements}, auth + membership floor ${floor.statements}, health ${health.statements}. ` +
        `The board at ${Math.round((board.rps / health.rps) * 100)}% of /api/health throughput (goal on PostgreSQL ≥ 60%: ${verdict(board.rps / health.rps >= 0.6)}); ` +
        `${Math.round(board.bytes / board.items)} B per card on the 100k workspace's board (${board.bytes} B for ${board.items} cards), ` +
        `${whole.perCard} B per card on the 4,000-card workspace's (goal ≤ 600 B: ${verdict(Math.max(whole.perCard, board.bytes / board.items) <= 600)}); ` +
        `all 4,000 cards in ${whole.p50} ms one page after another, ${wholeParallel.p50} ms with the five columns at once (median of ${WHOLE_BOARD_ROUNDS}; goal ≤ 150 ms: ${verdict(Math.min(whole.p50, wholeParallel.p50) <= 150)}).`,
    );
  }
  return lines.join("\n\n");
}

function adminEnv() {
  return { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
}

async function post(url, pathname, body, token) {
  const response = await fetch(url + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
