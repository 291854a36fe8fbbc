import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AgentNotInstalled, launchAgent, notInstalledMessage, type AgentLaunch } from "@/lib/agents/launch-agent";
import { confineLaunch } from "@/lib/agents/confine-launch";
import { presetById } from "@/lib/agents/presets";
import { missingKeyMessage } from "@/lib/agents/readiness";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { agentOf } from "@/lib/runner-process/acp-run";
import { concludeJobWorkdir, prepareJobWorkdir } from "@/lib/runner-process/job-workdir";
import { driveAcp } from "@/lib/runner-process/acp-turn";
import { agentSessionsDir, killGraceMs, reportsDir, runTimeoutSeconds } from "@/lib/platform/runner-config";
import { agentEnvironment } from "@/lib/runner-process/environment";
import { LogSink } from "@/lib/runner-process/log-sink";
import { capReport, REPORT_MAX_BYTES } from "@/lib/runner-process/cap-report";
import type { Outcome, RunnerPort, TakeMore } from "@/lib/runner-process/runner-port";
import { delay, type Active, type Exited, type Ran, type Verdict } from "@/lib/runner-process/job-types";
import { killGroup, stopGroup } from "@/lib/platform/processes";

// One job on the runner: its working directory prepared, its agent started in its own process
// group (`command`: lines of output; `acp`: an Agent Client Protocol session), its log streamed in
// batches, permission requests turned into questions, and the outcome reported. Every word to the
// board goes through the port (docs/runners.md, "Protocol").

/** After the process exits, how long to wait for its pipes to go quiet (a grandchild may hold them). */
const PIPE_QUIET_MS = 2000;

export async function runJob(port: RunnerPort, entry: Active) {
  const { job } = entry;
  const id = job.execution_id;
  const agent = agentOf(job.agent);
  // A run handed back by another runner keeps its log: numbering goes on from what is stored.
  let seq = job.log_seq;
  const sink = new LogSink((entries, { stalled, more, now }) => {
    const first = seq;
    seq += entries.length;
    const takeMore: TakeMore = (fits) => {
      const extra = more(fits);
      seq += extra.length;
      return extra;
    };
    return port.log(id, entries, first, { stalled, more: takeMore, now });
  });
  const gitLog: WorkdirLog = async (type, update) => {
    sink.push(type, { ...update });
    await sink.settled();
  };
  const fail = async (message: string) => {
    sink.push("error", { message });
    await sink.close();
    await report(port, entry, { status: RUN_STATUS.failed, error_message: message });
  };
  let prepared: PreparedWorkdir;
  try {
    prepared = await prepareJobWorkdir(port, job, gitLog);
  } catch (error) {
    return fail(error instanceof WorkdirError ? error.message : `could not prepare the working directory: ${(error as Error).message}`);
  }
  if (prepared.skipAgent || entry.stop) {
    await sink.close();
    const outcome: Outcome = entry.stop
      ? { status: entry.stop.status, error_message: entry.stop.message }
      : { status: RUN_STATUS.succeeded, report: prepared.skipAgent!.report };
    return report(port, entry, outcome);
  }
  const cwd = prepared.cwd;
  const instructions = prepared.instructions ?? job.instructions;
  // A directory of the run's own, so the sandbox can let the agent write there and nowhere else.
  const reportFile = path.join(reportsDir(), id, "report.md");
  fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
  fs.mkdirSync(path.dirname(reportFile), { recursive: true, mode: 0o700 });
  sink.push("prompt", { text: instructions });

  let launch: AgentLaunch;
  const env = agentEnvironment(job, { instructions, workdir: cwd, reportFile }, agent);
  // A shipped agent without its model key would fail after seconds with a protocol error: say so at once, in words.
  const key = presetById(agent.preset)?.key;
  if (key && !env[key]) {
    fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
    return fail(missingKeyMessage(agent.name, key));
  }
  try {
    const sessions = job.agent_id ? agentSessionsDir(job.workspace_id, job.task.id, job.agent_id) : undefined;
    launch = await confineLaunch(agent, launchAgent(agent, env, cwd, sessions), cwd, [path.dirname(reportFile)], job.api_url, prepared.git);
  } catch (error) {
    fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
    return fail(
      error instanceof AgentNotInstalled ? error.message : `could not start the agent (${agent.name}): ${(error as Error).message}`,
    );
  }
  try {
    await runLaunched(port, entry, agent, launch, { cwd, instructions, sink, reportFile, gitLog, fail });
  } finally {
    launch.cleanup();
  }
}

async function runLaunched(
  port: RunnerPort,
  entry: Active,
  agent: AgentSnapshot,
  launch: AgentLaunch,
  run: { cwd: string; instructions: string; sink: LogSink; reportFile: string; gitLog: WorkdirLog; fail: (m: string) => Promise<void> },
) {
  const { job } = entry;
  const { cwd, sink } = run;
  const child = spawn(launch.command, launch.args, {
    cwd,
    detached: true, // its own process group (and session), so cancel and timeout reach all of it
    stdio: ["pipe", "pipe", "pipe"],
    env: launch.env,
  });
  entry.child = child;
  entry.acp = agent.kind === "acp";
  const spawnError = await new Promise<Error | null>((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", resolve);
  });
  if (spawnError) {
    return run.fail(notInstalledMessage(agent, spawnError) ?? `could not start the agent (${agent.name}): ${spawnError.message}`);
  }
  const pid = child.pid!;
  if (entry.stop) stopGroup(pid, killGraceMs()); // cancelled while it was being started
  const exited: Exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // Reported while the agent runs, not before it is read: Node discards what a child printed when
  // nothing reads its pipes by the time it exits, and a quick command lost its whole output. The
  // report retries while the server is away; a refusal (the run is no longer this runner's) stops the agent.
  const pidReported = port
    .update(job.execution_id, { runner_pid: pid })
    .catch((error: Error) => entry.terminate(RUN_STATUS.cancelled, `the server refused the agent's start: ${error.message}`));
  const limit = runTimeoutSeconds(job.timeout_seconds);
  const timeout = () => entry.terminate(RUN_STATUS.timed_out, `timed out after ${limit} s; the process group was killed`);
  entry.timers.push(setTimeout(timeout, limit * 1000));

  const ran =
    agent.kind === "acp"
      ? await driveAcp(port, entry, agent, { child, cwd, instructions: run.instructions, sink, exited, sessionMeta: launch.sessionMeta })
      : await driveCommand(entry, child, run.instructions, sink, exited);
  // Nothing of the execution outlives it.
  killGroup(pid, "SIGTERM");
  await pidReported;

  let verdict = ran.verdict;
  const concluded = await concludeJobWorkdir(port, job, cwd, run.gitLog, verdict.status === RUN_STATUS.succeeded).catch((error: Error) => ({
    failed: error.message,
    changes: undefined,
  }));
  if (concluded.failed && verdict.status === RUN_STATUS.succeeded) {
    verdict = { status: RUN_STATUS.failed, exit_code: verdict.exit_code, error_message: concluded.failed };
    sink.push("error", { message: concluded.failed });
  }
  await sink.close();
  const outcome: Outcome = {
    ...verdict,
    report: outcomeReport(readReport(run.reportFile) ?? ran.report, sink.tail),
    last_activity_at: sink.lastActivityAt?.toISOString() ?? null,
    usage: ran.usage,
    // An ACP agent changes files only through tool calls, so "no message, no tool call" is also "no change".
    no_output: verdict.status === RUN_STATUS.succeeded && !ran.spoke,
    ...(concluded.changes ? { changes: concluded.changes } : {}),
  };
  fs.rmSync(path.dirname(run.reportFile), { recursive: true, force: true });
  // The session files are back in the task's directory before the run is reported ended: a
  // follow-up started the moment it ends must find them. A HOME the ending agent still writes to may
  // refuse its removal; the `finally` of runJob tries again after the report.
  try {
    launch.cleanup();
  } catch {
    // tried again below
  }
  await report(port, entry, outcome);
}

/** The report `finish` carries, never past REPORT_MAX_BYTES: the agent's own, else the tail of its output. */
function outcomeReport(own: string | null, tail: string[]): string | null {
  if (own != null) return capReport(own, "start");
  return tail.length > 0 ? capReport(tail.join("\n"), "end") || null : null;
}

/** The outcome; or, when the runner stopped the agent to hand the run back (it is shutting down), the run queued again for another runner. */
function report(port: RunnerPort, entry: Active, outcome: Outcome) {
  if (entry.handBack && port.release) return port.release(entry.job.execution_id, entry.handBack);
  return port.finish(entry.job.execution_id, outcome);
}

/** A `command` agent: instructions on standard input, each line of output an `output` entry. */
async function driveCommand(entry: Active, child: ChildProcess, instructions: string, sink: LogSink, exited: Exited): Promise<Ran> {
  child.stdin!.on("error", () => {}); // an agent that never reads its instructions closes the pipe early
  child.stdin!.end(instructions);
  let lastData = Date.now();
  // Paused while the log catches up (a slow database): not quiet, however long it takes.
  let paused = false;
  const streams = [child.stdout!, child.stderr!];
  const ended = Promise.all(streams.map((stream) => new Promise((resolve) => stream.once("close", resolve))));
  for (const [name, stream] of [
    ["stdout", child.stdout!],
    ["stderr", child.stderr!],
  ] as const) {
    stream.on("data", (chunk: Buffer) => {
      lastData = Date.now();
      if (!sink.write(name, chunk)) {
        paused = true;
        for (const s of streams) s.pause();
        void sink.drained().then(() => {
          paused = false;
          lastData = Date.now();
          streams.forEach((s) => s.resume());
        });
      }
    });
  }
  const { code, signal } = await exited;
  // A grandchild may still hold the pipes: read on while output keeps coming, then let go.
  while ((await Promise.race([ended.then(() => true), delay(250).then(() => false)])) === false) {
    if (!paused && Date.now() - lastData > PIPE_QUIET_MS) {
      streams.forEach((s) => s.destroy());
      break;
    }
  }
  return { verdict: commandVerdict(entry, code, signal, sink.lastStderrLine), report: null, usage: null, spoke: sink.tail.length > 0 };
}

function commandVerdict(entry: Active, code: number | null, signal: NodeJS.Signals | null, lastStderr: string): Verdict {
  if (entry.stop) return { status: entry.stop.status, exit_code: code, error_message: entry.stop.message };
  if (code === 0) return { status: RUN_STATUS.succeeded, exit_code: 0, error_message: null };
  const why = code !== null ? `the agent exited with code ${code}` : `the agent was killed by signal ${signal}`;
  // The agent's own last words first (what a person acts on), the exit code after them.
  return { status: RUN_STATUS.failed, exit_code: code, error_message: lastStderr ? `${lastStderr} (${why})` : capitalize(why) };
}

/**
 * The agent's report, if it wrote one as a regular file: a symlink (O_NOFOLLOW) or a device, fifo
 * or directory is ignored, so an agent cannot have the runner copy one of its own files (the
 * database, auth-secret) into a report. At most REPORT_MAX_BYTES are kept (cut at a character, saying so).
 */
export function readReport(file: string): string | null {
  let handle: number | undefined;
  try {
    handle = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(handle).isFile()) return null;
    // One byte more than is kept, to know whether there was more.
    const buffer = Buffer.alloc(REPORT_MAX_BYTES + 1);
    const size = fs.readSync(handle, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, size).toString("utf8");
    return text.trim() ? capReport(text, "start") : null;
  } catch {
    return null;
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
