import { closeDb } from "@/lib/db/client";
import { beginClose, beginDrain } from "@/lib/server/draining";
import { stopEmbeddedRunner } from "@/lib/server/embedded-runner";
import { runnerGraceMs } from "@/lib/platform/runner-config";

// SIGTERM (a deploy, `docker stop`, a pod's stop) or SIGINT (Ctrl-C) on the server. Next's own
// handler closes the HTTP server at once and waits for every open response, which an open board's
// event stream never ends, and it leaves the embedded runner with no server to hand its runs back
// to. So this handler goes first, in order (docs/runners.md, "Stopping the server"):
// 1. every event stream ends with a last `reconnect` event (lib/server/draining.ts);
// 2. the embedded runner is stopped while this server still answers: its runs get
//    RUNNER_GRACE_SECONDS, then are handed back and queued again for the next server's runner;
// 3. long polls answer, and Next's handler closes the HTTP server and exits (143 for SIGTERM);
// 4. on its way out the database is closed: the embedded one (a thread of its own) writes its
//    checkpoint, so the next start needs no recovery.
// Bounds: the runner at most RUNNER_GRACE_SECONDS + RUNNER_WRAP_UP_MS (then SIGKILL), the close at
// most CLOSE_MS: with no run under way the process ends within seconds, with runs within
// RUNNER_GRACE_SECONDS + 15 s.

/** After the grace: the ACP agent's moment to end its turn (2 s), the kill grace (5 s), the hand-back. */
const RUNNER_WRAP_UP_MS = 11_000;
/** Next's close waits for requests under way; past this the process exits anyway. */
const CLOSE_MS = 3_000;
/** Closing the database waits for a transaction under way; past this the process exits anyway. */
const CLOSE_DB_MS = 2_000;

const EXIT_CODES = { SIGTERM: 143, SIGINT: 130 } as const;
type StopSignal = keyof typeof EXIT_CODES;

let stopping = false;

/**
 * Called once the server has started (lib/server/start.ts). `next start` has installed its
 * handlers by then (before it loads instrumentation.ts); they are taken off and called last.
 */
export function installShutdown() {
  for (const signal of Object.keys(EXIT_CODES) as StopSignal[]) {
    const theirs = process.listeners(signal) as NodeJS.SignalsListener[];
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(signal, theirs));
  }
}

async function stop(signal: StopSignal, theirs: NodeJS.SignalsListener[]) {
  // A second signal (a shell sends Ctrl-C to the whole group, and `npm start` passes it on) changes nothing.
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  const streams = beginDrain();
  console.log(`[taskboard] ${signal}: stopping; ${streams} event stream(s) told to reconnect`);
  try {
    const runner = await stopEmbeddedRunner(runnerGraceMs() + RUNNER_WRAP_UP_MS);
    if (runner !== "none") console.log(`[taskboard] embedded runner ${runner} after ${seconds(started)} s`);
  } catch (error) {
    console.error(`[taskboard] stopping the embedded runner: ${(error as Error).message}`);
  }
  beginClose();
  closeDbOnExit();
  // Not unref'd: it is what guarantees the end if a request under way never finishes.
  setTimeout(() => {
    console.error(`[taskboard] requests still under way after ${CLOSE_MS / 1000} s; exiting`);
    process.exit(EXIT_CODES[signal]);
  }, CLOSE_MS);
  if (theirs.length === 0) process.exit(EXIT_CODES[signal]);
  for (const listener of theirs) listener(signal);
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

/**
 * Next's handler ends the process with process.exit once its requests are done, and gives no hook
 * before it: so the first exit closes the database first (at most CLOSE_DB_MS), then exits.
 */
function closeDbOnExit() {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number) => {
    process.exit = exit;
    const done = () => exit(code);
    setTimeout(done, CLOSE_DB_MS);
    closeDb().then(done, (error: Error) => {
      console.error(`[taskboard] closing the database: ${error.message}`);
      done();
    });
  }) as typeof process.exit;
}
