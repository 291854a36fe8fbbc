#!/usr/bin/env node
// `npm run bench:reactions`: what the reactions (lib/reactions/) cost a request that waits for them
// (`Prefer: wait=reactions`, docs/api.md), sequentially over one connection, on PGlite and (when
// reachable) PostgreSQL:
// - creating a task (task.created: no reaction reads it, so nothing is waited for): the baseline;
// - renaming a task (task.updated: start-unblocked and fix-conflicts read that type, but their match
//   takes only a move to Done or a merge conflict, so nothing is waited for either);
// - moving a blocker to Done (start-unblocked starts its dependant's run before the answer).
// Writes the figures into docs/PERFORMANCE.md between the bench:reactions markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root } from "../lib/build-state.mjs";
import { benchClient, writeBenchSection } from "../lib/bench-report.mjs";
import { startServer } from "../lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";

const N = 200;
const UNBLOCKS = 40;
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}
const results = [await bench("pglite")];
if (await postgresReachable()) results.push(await bench("postgresql"));
writeReport(results);
process.exit(0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-reactions-"));
  // A command agent that ends at once: the runs the dependants get cost little.
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AGENT_COMMAND: "true" };
  const server = await startServer({ databaseUrl: scratch?.url, dataDir, label: `bench-reactions-${kind}`, env });
  try {
    // The figures are those of a client that waits for the reactions (docs/api.md): the dependant's run is there at the answer.
    const api = benchClient(server.url, { headers: { prefer: "wait=reactions" } });
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    await api("PATCH", `/api/workspaces/${ws}`, { auto_start_unblocked: true, auto_move_tasks: false }, token);
    const tasks = `/api/workspaces/${ws}/tasks`;
    const create = [];
    const rename = [];
    for (let i = 0; i < N; i++) {
      const created = await timed(() => api("POST", tasks, { title: `bench ${i}`, status: "backlog" }, token));
      create.push(created.ms);
      rename.push((await timed(() => api("PATCH", `${tasks}/${created.response.body.id}`, { title: `renamed ${i}` }, token))).ms);
    }
    const unblock = [];
    for (let i = 0; i < UNBLOCKS; i++) {
      const blocker = (await api("POST", tasks, { title: `blocker ${i}`, status: "in_progress" }, token)).body.id;
      const dependant = (await api("POST", tasks, { title: `dependant ${i}`, status: "todo" }, token)).body.id;
      await api("POST", `${tasks}/${dependant}/dependencies/${blocker}`, undefined, token);
      unblock.push((await timed(() => api("PATCH", `${tasks}/${blocker}`, { status: "done" }, token))).ms);
      const runs = (await api("GET", `${tasks}/${dependant}/runs`, undefined, token)).body;
      if (runs.length !== 1) throw new Error(`the dependant's run was not there after the answer (${runs.length})`);
    }
    return { kind, create: stats(create), rename: stats(rename), unblock: stats(unblock) };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

async function timed(request) {
  const start = performance.now();
  const response = await request();
  if (response.status >= 400) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return { response, ms: performance.now() - start };
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `${at(0.5)} / ${at(0.9)} / ${at(0.99)}`;
}

function writeReport(results) {
  const section = [
    "## Requests that wait for their reactions (`npm run bench:reactions`)",
    "",
    `Measured on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the end), production build, one connection, sequential. A request answers once the reactions that read its events have passed them (at most 2 s; docs/architecture.md, "Reactions"). Milliseconds, median / p90 / p99.`,
    "",
    "| database | create a task (no reaction reads it) | rename a task (a task.updated no reaction's match takes) | move a blocker to Done (its dependant's run starts before the answer) |",
    "|---|---|---|---|",
    ...results.map((r) => `| ${r.kind} | ${r.create} | ${r.rename} | ${r.unblock} |`),
  ];
  writeBenchSection("reactions", section);
}
