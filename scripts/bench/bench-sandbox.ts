// `npm run bench:sandbox`: what the agent sandbox (lib/sandbox) adds to starting an agent. A trivial
// command agent (`true`, and `node -e ""` for a Node agent) is started and waited for, 20 times
// each (BENCH_RUNS), directly and through sandboxedCommand: with the network `full` (bubblewrap
// alone) and with the allowlist (also the proxy and the socat relays for the board's port and the
// proxy), each with its clean-up. Prints the medians.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sandboxedCommand } from "../../lib/sandbox/sandboxed-command";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ENV: NodeJS.ProcessEnv = { NODE_ENV: "production", PATH: process.env.PATH };
const worktree = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
process.env.AGENT_SANDBOX = "bubblewrap";

function started(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: worktree, env, stdio: "ignore", detached: true });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}

async function direct(command: string, args: string[]) {
  await started(command, args, ENV);
}

async function sandboxed(command: string, args: string[], network: "allowlist" | "full") {
  const wrapped = await sandboxedCommand({
    command,
    args,
    cwd: worktree,
    env: ENV,
    networkAllow: ["api.anthropic.com"],
    network,
    boardUrl: "http://127.0.0.1:3000",
    isDemo: false,
  });
  try {
    await started(wrapped.command, wrapped.args, wrapped.env);
  } finally {
    await wrapped.cleanup();
  }
}

async function median(run: () => Promise<void>): Promise<number> {
  await run(); // warm the page cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

try {
  const rows: string[] = [];
  for (const [label, command, args] of [
    ["`true`", "true", []],
    ['`node -e ""`', process.execPath, ["-e", ""]],
  ] as const) {
    const plain = await median(() => direct(command, [...args]));
    const open = await median(() => sandboxed(command, [...args], "full"));
    const confined = await median(() => sandboxed(command, [...args], "allowlist"));
    const added = (ms: number) => `${ms.toFixed(1)} ms (+${(ms - plain).toFixed(1)})`;
    rows.push(`| ${label} | ${plain.toFixed(1)} ms | ${added(open)} | ${added(confined)} |`);
  }
  console.log(`Median of ${RUNS} starts each, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}`);
  console.log(`Load average at the end: ${os.loadavg()[0].toFixed(1)}`);
  console.log("| Agent | Unconfined | Sandbox, network `full` | Sandbox, allowlist (proxy + 2 relays) |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  fs.rmSync(worktree, { recursive: true, force: true });
}
