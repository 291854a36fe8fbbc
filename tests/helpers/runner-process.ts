import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * A runner process (`npm run runner`: the bundle the build made, tsx only if sources are newer) for the board at `url`. Like the test
 * servers (scripts/lib/server.mjs), it lets sandboxed agents read the test fixtures they run.
 */
export function spawnRunner(
  url: string,
  token: string,
  env: Record<string, string> = {},
  stdio: StdioOptions = "ignore",
  args: string[] = [],
) {
  return spawn(process.execPath, ["scripts/runner.mjs", "--url", url, "--token", token, ...args], {
    cwd: ROOT,
    env: { ...process.env, AGENT_LOG_FLUSH_MS: "100", AGENT_SANDBOX_READONLY: path.join(ROOT, "tests", "fixtures"), ...env },
    stdio,
  });
}

/**
 * SIGTERM (the runner hands its runs back and exits), SIGKILL after `killAfterMs`. A runner already
 * ended, by itself or by a signal, is left alone: waiting for its exit would wait for nothing.
 */
export async function stopRunner(child: ChildProcess, killAfterMs: number) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}
