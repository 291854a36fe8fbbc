import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { root } from "./build-state.mjs";
import { nextStartArgs } from "./next-start.mjs";

/**
 * Starts the production server (`next start`) on a free port with its own fresh database, for
 * tests and benchmarks. Returns its URL and a stop function that also removes what it made.
 * `nodeArgs`: options for node itself, such as `--cpu-prof` (which NODE_OPTIONS refuses).
 * @param {{ databaseUrl?: string, env?: Record<string, string>, label?: string, dataDir?: string, port?: number, nodeArgs?: string[] }} [options]
 */
export async function startServer({ databaseUrl, env = {}, label = "server", dataDir: givenDataDir, port: givenPort, nodeArgs = [] } = {}) {
  // TASKBOARD_CPU_PROF_DIR: every server a test run starts writes its CPU profile there (docs/testing.md).
  const profileDir = process.env.TASKBOARD_CPU_PROF_DIR;
  if (profileDir) nodeArgs = [...nodeArgs, "--cpu-prof", `--cpu-prof-dir=${profileDir}`];
  // TASKBOARD_SERVER_NODE_ARGS: node options every server of a test run gets (scripts/lib/test-node-args.mjs).
  nodeArgs = [...(process.env.TASKBOARD_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...nodeArgs];
  const port = givenPort ?? (await freePort());
  const dataDir = givenDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `taskboard-${label}-`));
  seedPglite(databaseUrl, dataDir);
  const child = spawn(process.execPath, [...nodeArgs, ...nextStartArgs(port, "127.0.0.1")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      PORT: String(port),
      // The test agents (tests/fixtures) are read from the sandbox too (docs/runners.md).
      AGENT_SANDBOX_READONLY: path.join(root, "tests", "fixtures"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
    if (process.env.TASKBOARD_SERVER_LOG) process.stderr.write(`[${label}] ${chunk}`);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, output);
  return {
    url,
    dataDir,
    child,
    output,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([new Promise((resolve) => child.once("exit", resolve)), delay(5000)]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (!givenDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Tests set TASKBOARD_PGLITE_TEMPLATE (tests/setup/database-templates.ts): a new embedded database
 * starts as a copy of a migrated one instead of spending 12 s in initdb and the migrations.
 */
export function seedPglite(databaseUrl, dataDir) {
  const template = process.env.TASKBOARD_PGLITE_TEMPLATE;
  const target = path.join(dataDir, "pglite");
  // A data directory that does not exist yet is the server's to create (owner-only, 0700): not seeded.
  if (databaseUrl || !template || !fs.existsSync(dataDir) || fs.existsSync(target)) return;
  fs.cpSync(template, target, { recursive: true });
}

async function waitForHealth(url, child, output) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.join("")}`);
    try {
      const response = await fetch(`${url}/api/health`);
      // Read to the end: an unread body keeps its connection busy, and the server's stop then
      // waits its full close timeout (3 s) for it.
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy within 60 s:\n${output.join("")}`);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
