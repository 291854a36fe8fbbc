#!/usr/bin/env node
// `npm test`: every test. Lints (ESLint and Prettier; a lint error fails the run), builds once, runs
// the vitest suite (unit + API over HTTP) on the embedded database, then again on PostgreSQL when one
// is reachable (mandatory under CI=true) with the Playwright browser tests beside it: those two
// passes leave 15-18 % of the machine idle each, and together took 386 s against 506 s one after
// the other (docs/testing.md); on a slow machine they run one after the other. TEST_SEQUENTIAL=1
// runs every pass alone; TEST_PARALLEL=1 runs all three at once, whose load (about 20 on 2 cores)
// makes timing-bound tests fail. Each pass's lines are prefixed with its name. Ends with one line
// "Tests: N passed, N failed".
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { needsBuild, root } from "./lib/build-state.mjs";
import { findChromium, INSTALL_COMMAND } from "./lib/find-chromium.mjs";
import { postgresAdminUrl, postgresReachable } from "./lib/postgres.mjs";
import { ensureSandboxTools, SANDBOX_INSTALL_COMMAND } from "./lib/sandbox-tools.mjs";

// A quick machine runs the PGlite pass in 340-450 s, a slow one (2-2.5 times slower) in 760-1,200 s;
// the overlap saves about 120 s on the first and fails timing-bound tests on the second.
const SLOW_MACHINE_PGLITE_SECONDS = 480;
const artifacts = path.join(root, "tests", "artifacts");
fs.mkdirSync(artifacts, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

// Lint beside the build: one is mostly a single thread, and neither reads what the other writes
// (ESLint and Prettier ignore .next and lib/generated). About 30 s less on 2 cores.
const prepared = await Promise.all([
  pass("lint", "npm", ["run", "-s", "lint"], {}),
  needsBuild() ? pass("build", "npm", ["run", "build"], {}) : 0,
]);
const failedSteps = ["lint", "build"].filter((_, i) => prepared[i] !== 0);
if (failedSteps.length > 0) {
  console.error(`[test] ${failedSteps.join(" and ")} failed`);
  console.log("\nTests: 0 passed, 1 failed");
  process.exit(1);
}

const chromium = await findChromium();
if (!chromium) {
  console.error(
    `[test] No browser for the Playwright tests. Install Debian's Chromium with:\n\n    ${INSTALL_COMMAND}\n\nor set CHROMIUM_PATH to a Chromium binary, then run npm test again.`,
  );
  process.exit(1);
}

if (!ensureSandboxTools()) {
  console.error(
    `[test] Programs the tests run are missing (the agent sandbox's, and the mail tests' IMAP server). Install them with:\n\n    ${SANDBOX_INSTALL_COMMAND}\n\nthen run npm test again.`,
  );
  process.exit(1);
}

const passes = [() => vitest("pglite", {}, [])];
if (await postgresReachable()) {
  // The "unit" project does not touch a database: it ran in the first pass (vitest.config.mts).
  passes.push(() => vitest("postgresql", { TEST_DATABASE: "postgresql" }, ["--project", "unit-db", "--project", "api"]));
} else if (process.env.CI === "true") {
  problems.push(`PostgreSQL is not reachable at ${redact(postgresAdminUrl())}; under CI the PostgreSQL pass is mandatory`);
  totals.failed++;
} else {
  console.log(
    `[test] PostgreSQL not reachable at ${redact(postgresAdminUrl())}: skipping the PostgreSQL pass (set TEST_DATABASE_URL to run it).`,
  );
}

passes.push(() => playwright(chromium));
if (process.env.TEST_PARALLEL === "1") await Promise.all(passes.map((pass) => pass()));
else if (process.env.TEST_SEQUENTIAL === "1") for (const pass of passes) await pass();
else {
  // The PGlite pass alone (it leaves only 6 % of the machine idle), then the rest at once, unless
  // that pass showed a slow machine: there the two side by side made tests that wait for a page or
  // a heartbeat fail (stop 56's CI; docs/testing.md), and one after the other they pass.
  const started = Date.now();
  await passes[0]();
  const seconds = (Date.now() - started) / 1000;
  if (seconds <= SLOW_MACHINE_PGLITE_SECONDS) await Promise.all(passes.slice(1).map((pass) => pass()));
  else {
    console.log(
      `[test] the PGlite pass took ${Math.round(seconds)} s (over ${SLOW_MACHINE_PGLITE_SECONDS} s): a slow machine, so the other passes run one after the other`,
    );
    for (const pass of passes.slice(1)) await pass();
  }
}

for (const problem of problems) console.error(`[test] FAILED: ${problem}`);
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed > 0 || problems.length > 0 ? 1 : 0);

async function vitest(label, env, projects) {
  const report = path.join(artifacts, `vitest-${label}.json`);
  fs.rmSync(report, { force: true });
  console.log(`\n[test] vitest on ${label}`);
  const status = await pass(
    label,
    "npx",
    ["vitest", "run", ...projects, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    env,
  );
  const counted = readJson(report);
  if (counted) {
    totals.passed += counted.numPassedTests;
    totals.failed += counted.numFailedTests;
    totals.skipped += counted.numPendingTests + (counted.numTodoTests ?? 0);
    if (counted.numTotalTests === 0) problems.push(`vitest on ${label} ran no test`);
  }
  if (status !== 0) problems.push(`vitest on ${label} exited with ${status}`);
}

async function playwright(executable) {
  const report = path.join(artifacts, "playwright-results.json");
  fs.rmSync(report, { force: true });
  console.log(`\n[test] Playwright with ${executable}`);
  const status = await pass("e2e", "npx", ["playwright", "test"], { CHROMIUM_PATH: executable });
  const counted = readJson(report);
  if (counted?.stats) {
    totals.passed += counted.stats.expected;
    totals.failed += counted.stats.unexpected + counted.stats.flaky;
    totals.skipped += counted.stats.skipped;
    if (counted.stats.expected + counted.stats.unexpected + counted.stats.flaky === 0) problems.push("Playwright ran no test");
  }
  if (status !== 0) problems.push(`Playwright exited with ${status}`);
}

/** A pass as a child process, its lines prefixed with its label; resolves to its exit status. */
function pass(label, command, args, env) {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORCE_COLOR: "0", ...env },
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      for (const line of lines) console.log(`[${label}] ${line}`);
    });
    stream.on("end", () => rest && console.log(`[${label}] ${rest}`));
  }
  return new Promise((resolve) =>
    child.on("close", (code) => {
      console.log(`[test] ${label} ended with ${code} after ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(code ?? 1);
    }),
  );
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function redact(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@");
}
