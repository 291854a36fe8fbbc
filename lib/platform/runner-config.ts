import path from "node:path";
import { positiveInt, positiveNumber } from "@/lib/config";
import { runnerPrivateDir } from "@/lib/platform/private-dir";

// The runner's settings from the environment (docs/agents.md lists them).

/** The shell command line of the agent; null means the bundled demo agent. */
export function agentCommand(): string | null {
  return process.env.AGENT_COMMAND?.trim() || null;
}

/** The demo agent, run with this Node when AGENT_COMMAND is not set. */
export function demoAgentCommand(): string {
  const script = path.join(/*turbopackIgnore: true*/ process.cwd(), "scripts", "demo-agent.mjs");
  return `${shellQuote(process.execPath)} ${shellQuote(script)}`;
}

/**
 * AGENT_WORKDIR may contain `{task_id}` and `{workspace_id}`; by default every task gets
 * <runner's private directory>/work/<workspace_id>/<task_id> (lib/platform/private-dir.ts). Never
 * inside DATA_DIR: an agent's working directory must not lead it to the database or auth-secret.
 */
export function agentWorkdir(workspaceId: string, taskId: string): string {
  const configured = process.env.AGENT_WORKDIR?.trim();
  if (!configured) return path.join(runnerPrivateDir(), "work", workspaceId, taskId);
  return path.resolve(/*turbopackIgnore: true*/ configured.replaceAll("{task_id}", taskId).replaceAll("{workspace_id}", workspaceId));
}

/** Where agents write their reports (TASKBOARD_REPORT_FILE); outside DATA_DIR too. */
export function reportsDir(): string {
  return path.join(runnerPrivateDir(), "reports");
}

/** Where an agent's session files wait between runs of one task and profile (outside DATA_DIR and the worktree). */
export function agentSessionsDir(workspaceId: string, taskId: string, agentId?: string): string {
  return path.join(runnerPrivateDir(), "agent-sessions", workspaceId, taskId, ...(agentId ? [agentId] : []));
}

/** Where a profile's agent gets its fresh HOME for one run (launchAgent). */
export function agentHomesDir(): string {
  return path.join(runnerPrivateDir(), "homes");
}

/** Where the runner writes a run's git bundle before sending it. */
export function bundlesDir(): string {
  return path.join(runnerPrivateDir(), "bundles");
}

/** Executions running at once in one server process. */
export function maxConcurrent(): number {
  return positiveInt(process.env.AGENT_MAX_CONCURRENT, 2);
}

export function timeoutSeconds(): number {
  return positiveNumber(process.env.AGENT_TIMEOUT_SECONDS, 3600);
}

/**
 * A run's time limit on this runner: the server's, which the job carries, or the runner's own
 * AGENT_TIMEOUT_SECONDS where one is set and shorter (a team's machine may keep runs shorter; it
 * never lets one run longer than the server said).
 */
export function runTimeoutSeconds(jobSeconds: number): number {
  return process.env.AGENT_TIMEOUT_SECONDS ? Math.min(jobSeconds, timeoutSeconds()) : jobSeconds;
}

/**
 * RUNNER_GRACE_SECONDS: on SIGTERM, how long a runner lets its runs go on before it stops their
 * agents and hands them back (0: at once). The server's own shutdown waits this long for its
 * embedded runner, and a little more (lib/server/shutdown.ts).
 */
export function runnerGraceMs(): number {
  const raw = process.env.RUNNER_GRACE_SECONDS?.trim();
  const value = Number(raw);
  return raw && Number.isFinite(value) && value >= 0 ? value * 1000 : 60_000;
}

/** Between SIGTERM and SIGKILL on cancel and timeout. */
export function killGraceMs(): number {
  return positiveNumber(process.env.AGENT_KILL_GRACE_SECONDS, 5) * 1000;
}

/** How often, at most, a runner sends its runs' logs: one request (one transaction) for all of them (lib/runner-process/log-courier.ts). */
export function logFlushMs(): number {
  return positiveInt(process.env.AGENT_LOG_FLUSH_MS, 250);
}

/**
 * AGENT_LOG_MAX_BYTES: how much of an agent's output and updates a run's log keeps (about bytes:
 * a line's UTF-8 bytes, an update's JSON), 50 MB by default. The runner stops there
 * (lib/runner-process/log-sink.ts); the server refuses a runner's entries a little past it (lib/runs/append-log-entries.ts).
 */
export function agentLogMaxBytes(): number {
  return positiveInt(process.env.AGENT_LOG_MAX_BYTES, 50 * 1024 * 1024);
}

export function schedulerIntervalMs(): number {
  return positiveInt(process.env.SCHEDULER_INTERVAL_MS, 10_000);
}

/** Where an agent reaches this service's API. */
export function apiUrl(): string {
  const configured = process.env.TASKBOARD_API_URL || process.env.NEXTAUTH_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return `http://127.0.0.1:${process.env.PORT || 3000}`;
}

export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
