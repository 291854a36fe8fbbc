import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { HttpPort } from "@/lib/runner-process/http-port";
import { Runner } from "@/lib/runner-process/runner";
import { runnerGraceMs } from "@/lib/platform/runner-config";
import { ignoreClosedOutput } from "@/lib/platform/closed-output";
import { bubblewrapUsableAsync, sandboxKind } from "@/lib/sandbox/mode";
import { sweepSandboxes } from "@/lib/sandbox/sandboxed-command";

// `npm run runner -- --url <board URL> --token <token> [--capacity N]` (or TASKBOARD_URL,
// TASKBOARD_RUNNER_TOKEN, RUNNER_CAPACITY): a runner process in the foreground, logging to standard
// output. SIGTERM or SIGINT: it stops claiming, lets its runs finish for RUNNER_GRACE_SECONDS, then
// stops what is left and hands those runs back (queued again for another runner), and exits 0. A deleted token (401): it stops its runs and exits 1.
// It runs as one process, from the bundle `npm run build` makes (scripts/runner.mjs) or with
// `node --import tsx`: the tsx CLI would relay signals and kill it after 30 ms.

// The embedded runner writes to the server's output, which may be a pipe whose reader is gone.
ignoreClosedOutput();

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    token: { type: "string" },
    capacity: { type: "string" },
    embedded: { type: "boolean" },
    "token-fd": { type: "string" },
  },
  strict: true,
});
const url = values.url ?? process.env.TASKBOARD_URL;
// --token-fd N: read from an inherited pipe (the embedded runner), so it is in no /proc file.
const token = values["token-fd"] ? readTokenFd(Number(values["token-fd"])) : (values.token ?? process.env.TASKBOARD_RUNNER_TOKEN);
const capacity = Number(values.capacity ?? process.env.RUNNER_CAPACITY ?? 2);
if (!url || !token || !Number.isInteger(capacity) || capacity < 1) {
  console.error("usage: npm run runner -- --url <board URL> --token <runner token> [--capacity N]");
  process.exit(2);
}
// The agents must never see the runner's own token.
delete process.env.TASKBOARD_RUNNER_TOKEN;

const ORPHAN_DELIVERY_MS = 120_000;
const graceMs = runnerGraceMs();
const version = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")).version as string;
const stopping = new AbortController();
let exitCode = 0;

const revoked = () => {
  if (!stopping.signal.aborted) console.error("[taskboard] runner: the server refused this runner's token (deleted?)");
  void shutdown(1, 0);
};
await bubblewrapUsableAsync();
const sandbox = sandboxKind();
try {
  sweepSandboxes(); // what a killed runner left in the temporary directory
} catch (error) {
  console.error(`[taskboard] runner: could not sweep old sandboxes: ${(error as Error).message}`);
}
const port = new HttpPort(url, token, { version, sandbox }, revoked, stopping.signal);
// Each heartbeat is held by the server until a run is to stop (a cancel arrives at once), at most this long.
const runner = new Runner(port, { capacity, heartbeatMs: 5000 });

async function shutdown(code: number, grace: number, handBack = false) {
  if (stopping.signal.aborted) return;
  exitCode = code;
  stopping.abort();
  console.log(`[taskboard] runner: stopping (${runner.running} run(s) under way${grace > 0 ? `, ${grace / 1000} s to finish` : ""})`);
  await runner.stop(grace, handBack);
  console.log("[taskboard] runner: stopped");
  process.exit(exitCode);
}

process.on("SIGTERM", () => void shutdown(0, graceMs, true));
if (values.embedded) watchParent();
process.on("SIGINT", () => void shutdown(0, graceMs, true));
process.once("exit", () => runner.killAll());
console.log(`[taskboard] runner ${version}: ${url}, capacity ${capacity}, sandbox ${sandbox}${values.embedded ? " (embedded)" : ""}`);
if (sandbox === "none") console.warn("[taskboard] runner: agents are NOT sandboxed (docs/runners.md)");
runner.start();

/**
 * The embedded runner outlives a killed server (kill -9, a crash): it stops claiming, lets its runs
 * finish and delivers them when the next server answers on the same URL, then exits. It never
 * lingers past the grace period plus ORPHAN_DELIVERY_MS.
 */
function watchParent() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    console.log("[taskboard] runner: the server that started it is gone; finishing its runs");
    setTimeout(() => process.exit(exitCode), graceMs + ORPHAN_DELIVERY_MS).unref();
    void shutdown(0, graceMs);
  }, 1000);
  timer.unref();
}

function readTokenFd(fd: number): string {
  const text = fs.readFileSync(fd, "utf8").trim();
  fs.closeSync(fd);
  return text;
}
