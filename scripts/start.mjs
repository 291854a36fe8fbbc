#!/usr/bin/env node
// `npm start`: build when there is no build or the sources are newer than it, then serve.
// Migrations run inside the server process at start-up (it owns the embedded database).
import { spawn, spawnSync } from "node:child_process";
import { needsBuild, root } from "./lib/build-state.mjs";
import { nextStartArgs } from "./lib/next-start.mjs";

if (needsBuild()) {
  console.log("[taskboard] building (first start, or sources changed)…");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT || "3000";
const args = nextStartArgs(port, process.env.HOSTNAME);
const server = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
