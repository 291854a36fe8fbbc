#!/usr/bin/env -S npx tsx
// `npm run bench:start`: what a server's start costs, from `next start` to `/api/health` answering,
// in the ways the product and its tests start one (docs/PERFORMANCE.md, "A server's start"):
// - as `npm start` does: routes loaded at start, the embedded runner;
// - as most test servers do: routes loaded on first use (PRELOAD_ROUTES=false), a small buffer pool
//   for the embedded database (PGLITE_SHARED_BUFFERS_MB=16), no embedded runner;
// - the same with the embedded runner, as the test servers that run agents do.
// Each on PGlite (a copy of a migrated directory, as the tests start one) and on PostgreSQL when
// reachable (a copy of a migrated database). Per start: the wall time to health, the CPU time of the
// server's whole process tree by then and 2 s later (the embedded runner's start falls in between),
// and the server's resident memory. The starts of one kind alternate with the others', so a machine
// whose speed drifts (this one does, by a factor of two within an hour) moves all of them alike.
// BENCH_STARTS sets the starts per kind (6). BENCH_COMPARE=<another checkout, built>: its servers
// start in turn with this one's, each start of one followed by the same start of the other, for a
// before-and-after on a machine whose speed moves. Writes docs/PERFORMANCE.md between the bench:start markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { needsBuild, root } from "../lib/build-state.mjs";
import { writeBenchSection } from "../lib/bench-report.mjs";
import { descendants } from "../lib/process-tree.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";
import { startServer } from "../lib/server.mjs";
import { pgliteTemplate, postgresTemplate } from "../../tests/setup/database-templates";

const STARTS = Number(process.env.BENCH_STARTS) || 6;
const TICKS = 100; // /proc's clock ticks per second on Linux
const KINDS: { name: string; env: Record<string, string> }[] = [
  {
    name: "as `npm start` (routes at start, embedded runner)",
    env: { PRELOAD_ROUTES: "true", RUNNER_EMBEDDED: "true", PGLITE_SHARED_BUFFERS_MB: "" },
  },
  {
    name: "a test server: routes on first use, no runner",
    env: { PRELOAD_ROUTES: "false", RUNNER_EMBEDDED: "false", PGLITE_SHARED_BUFFERS_MB: "16" },
  },
  {
    name: "a test server with the embedded runner",
    env: { PRELOAD_ROUTES: "false", RUNNER_EMBEDDED: "true", PGLITE_SHARED_BUFFERS_MB: "16" },
  },
];

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}
process.env.TASKBOARD_PGLITE_TEMPLATE = await pgliteTemplate();
const databases: ("pglite" | "postgresql")[] = ["pglite"];
if (await postgresReachable()) {
  process.env.TASKBOARD_POSTGRES_TEMPLATE = await postgresTemplate();
  databases.push("postgresql");
}

// Each build's own server starter: it runs `next start` in that build's checkout.
const builds: { label: string; startServer: typeof startServer }[] = [{ label: "this build", startServer }];
if (process.env.BENCH_COMPARE) {
  const other = (await import(path.join(path.resolve(process.env.BENCH_COMPARE), "scripts/lib/server.mjs"))) as {
    startServer: typeof startServer;
  };
  builds.push({ label: `${path.basename(process.env.BENCH_COMPARE)}`, startServer: other.startServer });
}

type Sample = { wallMs: number; cpuMs: number; cpuSettledMs: number; rssMb: number };
const samples = new Map<string, Sample[]>();
for (let round = 0; round < STARTS; round++) {
  for (const database of databases) {
    for (const kind of KINDS) {
      for (const build of builds) {
        const key = `${database}\t${kind.name}\t${build.label}`;
        samples.set(key, [...(samples.get(key) ?? []), await measureStart(build.startServer, database, kind.env)]);
      }
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cell = (values: number[]) => `${Math.round(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
const lines = [
  "## A server's start (`npm run bench:start`)",
  "",
  `Measured on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")} at the end; ${STARTS} starts of each kind, the kinds taking turns. Median (range).`,
  "",
  "| database | start | build | to `/api/health`, ms | CPU by then, ms | CPU 2 s later, ms | server's memory, MB |",
  "|---|---|---|---:|---:|---:|---:|",
  ...[...samples].map(([key, values]) => {
    const [database, name, build] = key.split("\t");
    return `| ${database} | ${name} | ${build} | ${cell(values.map((v) => v.wallMs))} | ${cell(values.map((v) => v.cpuMs))} | ${cell(values.map((v) => v.cpuSettledMs))} | ${cell(values.map((v) => v.rssMb))} |`;
  }),
];
writeBenchSection("start", lines);
console.log(lines.join("\n"));
process.exit(0);

async function measureStart(start: typeof startServer, database: "pglite" | "postgresql", env: Record<string, string>): Promise<Sample> {
  const scratch = database === "postgresql" ? await createScratchDatabase("taskboard_bench_start", { migrated: true }) : undefined;
  const started = performance.now();
  const server = await start({
    databaseUrl: scratch?.url,
    label: "bench-start",
    env: { ...env, ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "bench-admin-password" },
  });
  const wallMs = performance.now() - started;
  const pid = server.child.pid!;
  const cpuMs = treeCpuMs(pid);
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  await sleep(2000);
  const cpuSettledMs = treeCpuMs(pid);
  await server.stop();
  await scratch?.drop();
  return { wallMs, cpuMs, cpuSettledMs, rssMb };
}

/** User and system time of a process and everything it started that still runs, in ms. */
function treeCpuMs(rootPid: number): number {
  let ticks = 0;
  for (const pid of descendants(rootPid)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended meanwhile
    }
  }
  return (ticks * 1000) / TICKS;
}
