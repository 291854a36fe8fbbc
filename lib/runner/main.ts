import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { HttpPort } from "@/lib/runner/http-port";
import { Runner } from "@/lib/runner/runner";

// `npm run runner -- --url <board URL> --token <token> [--capacity N]` (or TASKBOARD_URL,
// TASKBOARD_RUNNER_TOKEN, RUNNER_CAPACITY): a runner process in the foreground, logging to standard
// output. SIGTERM or SIGINT: it stops claiming, lets its runs finish for RUNNER_GRACE_SECONDS, then
// stops what is left and hands those runs back (queued again for another runner), and exits 0. A deleted token (401): it stops its runs and exits 1.
// It runs as `node --import tsx`, one process: the tsx CLI would relay signals and kill it after 30 ms.

const { values } = parseArgs({
  options: { url: { type: "string" }, token: { type: "string" }, capacity: { type: "string" } },
  strict: true,
});
const url = values.url ?? process.env.TASKBOARD_URL;
const token = values.token ?? process.env.TASKBOARD_RUNNER_TOKEN;
const capacity = Number(values.capacity ?? process.env.RUNNER_CAPACITY ?? 2);
if (!url || !token || !Number.isInteger(capacity) || capacity < 1) {
  console.error("usage: npm run runner -- --url <board URL> --token <runner token> [--capacity N]");
  process.exit(2);
}
// The agents must never see the runner's own token.
delete process.env.TASKBOARD_RUNNER_TOKEN;

const graceMs = Number(process.env.RUNNER_GRACE_SECONDS ?? 60) * 1000;
const version = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")).version as string;
const stopping = new AbortController();
let exitCode = 0;

const revoked = () => {
  if (!stopping.signal.aborted) console.error("[taskboard] runner: the server refused this runner's token (deleted?)");
  void shutdown(1, 0);
};
const port = new HttpPort(url, token, { version, sandbox: "none" }, revoked, stopping.signal);
const runner = new Runner(port, { capacity, longPoll: true, heartbeatMs: 5000 });

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
process.on("SIGINT", () => void shutdown(0, graceMs, true));
process.once("exit", () => runner.killAll());
console.log(`[taskboard] runner ${version}: ${url}, capacity ${capacity}, sandbox none`);
runner.start();
