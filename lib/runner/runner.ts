import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { hashSecret, newSecret } from "@/lib/auth/tokens";
import { recordEvents, recordEventsOfWorkspaces } from "@/lib/events/record-events";
import { agentTokenName, executionEvent, finishExecution, type Outcome } from "@/lib/runs/finish-execution";
import { setRunnerHandle, type RunnerHandle } from "@/lib/runs/runner-handle";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { AcpError, describeAcpFailure, driveAcpAgent } from "@/lib/agents/drive-acp-agent";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { chosenOption, raisePermissionQuestion, settlePermissionQuestion } from "@/lib/questions/permission-question";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { MAX_WAIT_SECONDS, waitForAnswer } from "@/lib/questions/wait-for-answer";
import { appendLogEntries, type LogWriter } from "@/lib/runs/append-log-entries";
import type { RunUsage } from "@/lib/tasks/schemas";
import { LogSink } from "@/lib/runner/log-sink";
import { agentOf, previousSession, recordRunModel, ReportText, UsageTally } from "@/lib/runner/acp-run";
import { concludeWorkdir } from "@/lib/git/workdir/conclude-workdir";
import { prepareWorkdir } from "@/lib/git/workdir/prepare-workdir";
import { WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { agentEnvironment } from "@/lib/runner/environment";
import { AgentNotInstalled, launchAgent, notInstalledMessage, type AgentLaunch } from "@/lib/agents/launch-agent";
import { confineLaunch } from "@/lib/agents/confine-launch";
import { sweepOrphans } from "@/lib/runner/recovery";
import { killGroup, stopGroup } from "@/lib/platform/processes";
import {
  agentSessionsDir,
  apiUrl,
  killGraceMs,
  logFlushMs,
  maxConcurrent,
  reportsDir,
  runnerPollMs,
  timeoutSeconds,
} from "@/lib/platform/runner-config";

// The runner of one server process. It claims queued executions (FOR UPDATE SKIP LOCKED, so with
// several instances on one PostgreSQL each is claimed once), prepares the task's working directory,
// runs the run's agent profile as a child process in its own process group (`command`: lines of
// output; `acp`: an Agent Client Protocol session), streams its log into execution_log_entries in
// batches, turns permission requests into questions, enforces the timeout, and records the
// outcome. AGENT_MAX_CONCURRENT applies per server process.

const REPORT_MAX_BYTES = 64 * 1024;
const SPEAKING = new Set(["agent_message_chunk", "tool_call", "plan"]);
/** After session/cancel, how long an ACP agent has to end its turn before its process group is stopped. */
const ACP_CANCEL_MS = 2000;
const SWEEP_EVERY_MS = 30_000;
/** After the process exits, how long to wait for its pipes to go quiet (a grandchild may hold them). */
const PIPE_QUIET_MS = 2000;

type StopStatus = typeof RUN_STATUS.cancelled | typeof RUN_STATUS.timed_out;
type Exited = Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
type Verdict = Pick<Outcome, "status" | "exitCode" | "errorMessage">;
interface Ran {
  verdict: Verdict;
  /** The agent's own closing words (ACP), when it wrote no report file. */
  report: string | null;
  usage: RunUsage | null;
  /** Whether the agent said or did anything: a message, a tool call or a plan (ACP), a line of output (command). */
  spoke: boolean;
}
type Claimed = Execution & { task: { title: string; prUrl: string | null } };

interface Active {
  id: string;
  child: ChildProcess | null;
  acp: boolean;
  /** Aborted on cancel and timeout: an ACP agent gets session/cancel, a pending permission `cancelled`. */
  abort: AbortController;
  stop: { status: StopStatus; message: string } | null;
  done: Promise<void>;
  timers: NodeJS.Timeout[];
  /** runner_pid is committed: only then may a start's answer be read (waitStarted). */
  started: boolean;
}

export class Runner implements RunnerHandle {
  readonly instanceId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
  private readonly active = new Map<string, Active>();
  private readonly startWaiters = new Map<string, Set<() => void>>();
  private ticking = false;
  private again = false;
  private lastSweep = 0;
  private interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly kind: "pglite" | "postgresql",
  ) {}

  start() {
    setRunnerHandle(this);
    this.interval = setInterval(() => this.wake(), runnerPollMs());
    this.interval.unref();
    // The agents live in their own process groups, so they would outlive a stopped server; the
    // rows stay `running` and the next start finishes them as interrupted.
    process.once("exit", () => {
      for (const entry of this.active.values()) if (entry.child?.pid) killGroup(entry.child.pid, "SIGTERM");
    });
    this.wake();
  }

  stop() {
    clearInterval(this.interval);
    setRunnerHandle(undefined);
  }

  wake() {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick().finally(() => {
      this.ticking = false;
    });
  }

  isLocal(executionId: string) {
    return this.active.has(executionId);
  }

  /** Resolves once this process has started the execution, or has left it queued (no room here). */
  waitStarted(executionId: string, timeoutMs = 3000): Promise<void> {
    const entry = this.active.get(executionId);
    // Not child.pid: the process exists before its runner_pid is committed, and a read in between
    // (another connection on PostgreSQL) would answer the start without it.
    if (entry?.started) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.startWaiters.get(executionId) ?? new Set();
      this.startWaiters.set(executionId, set);
      const timer = setTimeout(done, timeoutMs);
      set.add(done);
      function done() {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      }
    });
  }

  /** SIGTERM to the process group, SIGKILL after the grace period; resolves when it is recorded. */
  async cancel(executionId: string, message: string): Promise<boolean> {
    const entry = this.active.get(executionId);
    if (!entry) return false;
    this.terminate(entry, RUN_STATUS.cancelled, message);
    await entry.done;
    return true;
  }

  private async tick() {
    try {
      do {
        this.again = false;
        await this.stopCancelledElsewhere();
        if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
          this.lastSweep = Date.now();
          await sweepOrphans(this.db, this.kind, this.instanceId);
        }
        const room = maxConcurrent() - this.active.size;
        if (room > 0) for (const claimed of await this.claim(room)) this.launch(claimed);
      } while (this.again);
    } catch (error) {
      console.error(`[taskboard] runner: ${(error as Error).message}`);
    }
    // Whoever waits for an execution this pass did not take (no room, or another instance has it) stops waiting.
    for (const [id, waiters] of this.startWaiters) {
      if (!this.active.has(id)) for (const done of [...waiters]) done();
    }
  }

  private async claim(room: number) {
    const secrets = new Map<string, string>();
    const claimed = await this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM executions WHERE status = ${RUN_STATUS.queued}
        ORDER BY created_at, id LIMIT ${room}::int FOR UPDATE SKIP LOCKED`;
      const out = [];
      for (const { id } of rows) {
        const now = new Date();
        const execution = await tx.execution.update({
          where: { id },
          data: { status: RUN_STATUS.running, runnerInstance: this.instanceId, startedAt: now },
          include: { task: { select: { title: true, prUrl: true } } },
        });
        const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { status: RUN_STATUS.running, startedAt: now } });
        const secret = newSecret("agent");
        const keyed = await tx.authToken.updateMany({
          where: { kind: "agent", name: agentTokenName(id), revokedAt: null },
          data: { tokenHash: hashSecret(secret), expiresAt: new Date(now.getTime() + timeoutSeconds() * 1000 + killGraceMs() + 60_000) },
        });
        if (keyed.count > 0) secrets.set(id, secret);
        out.push({ execution, run });
      }
      await recordEventsOfWorkspaces(
        tx,
        out.flatMap(({ execution, run }) => [
          { workspaceId: execution.workspaceId, type: "run.updated" as const, taskId: run.taskId, data: serializeTaskRun(run) },
          { workspaceId: execution.workspaceId, ...executionEvent(execution) },
        ]),
      );
      return out;
    });
    return claimed.map(({ execution }) => ({ execution, secret: secrets.get(execution.id) ?? "" }));
  }

  private launch({ execution, secret }: { execution: Claimed; secret: string }) {
    const entry: Active = {
      id: execution.id,
      child: null,
      acp: false,
      abort: new AbortController(),
      stop: null,
      done: Promise.resolve(),
      timers: [],
      started: false,
    };
    this.active.set(execution.id, entry);
    entry.done = this.execute(entry, execution, secret)
      .catch(async (error) => {
        console.error(`[taskboard] execution ${execution.id}: ${(error as Error).stack}`);
        await finishExecution(this.db, execution.id, {
          status: RUN_STATUS.failed,
          errorMessage: `runner error: ${(error as Error).message}`,
        });
      })
      .catch(() => {})
      .finally(() => {
        for (const timer of entry.timers) clearTimeout(timer);
        this.active.delete(execution.id);
        this.notifyStarted(execution.id);
        this.wake();
      });
  }

  private async execute(entry: Active, execution: Claimed, secret: string) {
    const agent = agentOf(execution);
    const sink = new LogSink(logFlushMs(), (entries) => appendLogEntries(this.db, execution.id, entries));
    const log: LogWriter = async (type, update) => {
      sink.push(type, update);
      await sink.settled();
    };
    const gitLog: WorkdirLog = (type, update) => log(type, { ...update });
    let prepared: PreparedWorkdir;
    try {
      prepared = await prepareWorkdir(this.db, execution, gitLog);
    } catch (error) {
      const message =
        error instanceof WorkdirError ? error.message : `could not prepare the working directory: ${(error as Error).message}`;
      sink.push("error", { message });
      await sink.close();
      await finishExecution(this.db, execution.id, { status: RUN_STATUS.failed, errorMessage: message });
      return;
    }
    if (prepared.skipAgent || entry.stop) {
      await sink.close();
      const outcome: Outcome = entry.stop
        ? { status: entry.stop.status, errorMessage: entry.stop.message }
        : { status: RUN_STATUS.succeeded, report: prepared.skipAgent!.report };
      await finishExecution(this.db, execution.id, outcome);
      return;
    }
    const cwd = prepared.cwd;
    const instructions = prepared.instructions ?? execution.instructions;
    // A directory of the run's own, so the sandbox can let the agent write there and nowhere else.
    const reportFile = path.join(reportsDir(), execution.id, "report.md");
    fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(reportFile), { recursive: true, mode: 0o700 });
    sink.push("prompt", { text: instructions });

    let launch: AgentLaunch;
    try {
      const env = agentEnvironment({ ...execution, instructions }, { secret, workdir: cwd, reportFile }, agent);
      const sessions = execution.agentId ? agentSessionsDir(execution.workspaceId, execution.taskId, execution.agentId) : undefined;
      launch = await confineLaunch(agent, launchAgent(agent, env, cwd, sessions), cwd, [path.dirname(reportFile)]);
    } catch (error) {
      const message =
        error instanceof AgentNotInstalled ? error.message : `could not start the agent (${agent.name}): ${(error as Error).message}`;
      fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
      sink.push("error", { message });
      await sink.close();
      await finishExecution(this.db, execution.id, { status: RUN_STATUS.failed, errorMessage: message });
      return;
    }
    try {
      await this.runLaunched(entry, execution, agent, launch, { cwd, instructions, secret, sink, reportFile, gitLog });
    } finally {
      launch.cleanup();
    }
  }

  private async runLaunched(
    entry: Active,
    execution: Claimed,
    agent: AgentSnapshot,
    launch: AgentLaunch,
    {
      cwd,
      instructions,
      secret,
      sink,
      reportFile,
      gitLog,
    }: { cwd: string; instructions: string; secret: string; sink: LogSink; reportFile: string; gitLog: WorkdirLog },
  ) {
    const child = spawn(launch.command, launch.args, {
      cwd,
      detached: true, // its own process group (and session), so cancel and timeout reach all of it
      stdio: ["pipe", "pipe", "pipe"],
      env: launch.env,
    });
    entry.child = child;
    entry.acp = agent.kind === "acp";
    sink.expedite();
    const spawnError = await new Promise<Error | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", resolve);
    });
    if (spawnError) {
      const message = notInstalledMessage(agent, spawnError) ?? `could not start the agent (${agent.name}): ${spawnError.message}`;
      sink.push("error", { message });
      await sink.close();
      await finishExecution(this.db, execution.id, { status: RUN_STATUS.failed, errorMessage: message });
      return;
    }
    const pid = child.pid!;
    if (entry.stop) stopGroup(pid, killGraceMs()); // cancelled while it was being started
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    await this.db.$transaction(async (tx) => {
      const started = await tx.execution.update({ where: { id: execution.id }, data: { runnerPid: pid } });
      await recordEvents(tx, started.workspaceId, [executionEvent(started)]);
    });
    entry.started = true;
    this.notifyStarted(execution.id);

    entry.timers.push(
      setTimeout(
        () => this.terminate(entry, RUN_STATUS.timed_out, `timed out after ${timeoutSeconds()} s; the process group was killed`),
        timeoutSeconds() * 1000,
      ),
    );

    const ran =
      agent.kind === "acp"
        ? await this.driveAcp(entry, execution, agent, { child, cwd, instructions, secret, sink, exited, sessionMeta: launch.sessionMeta })
        : await this.driveCommand(entry, child, instructions, sink, exited);
    // Nothing of the execution outlives it.
    killGroup(pid, "SIGTERM");

    let verdict = ran.verdict;
    const concluded = await concludeWorkdir(this.db, execution, cwd, gitLog, verdict.status === RUN_STATUS.succeeded).catch(
      (error: Error) => ({ failed: error.message }),
    );
    if (concluded.failed && verdict.status === RUN_STATUS.succeeded) {
      verdict = { status: RUN_STATUS.failed, exitCode: verdict.exitCode, errorMessage: concluded.failed };
      sink.push("error", { message: concluded.failed });
    }
    await sink.close();
    const outcome: Outcome = {
      ...verdict,
      report: readReport(reportFile) ?? ran.report ?? (sink.tail.join("\n") || null),
      lastActivityAt: sink.lastActivityAt,
      usage: ran.usage,
      // An ACP agent changes files only through tool calls, so "no message, no tool call" is also "no change".
      noOutput: verdict.status === RUN_STATUS.succeeded && !ran.spoke,
    };
    fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
    await finishExecution(this.db, execution.id, outcome);
  }

  /** A `command` agent: instructions on standard input, each line of output an `output` entry. */
  private async driveCommand(entry: Active, child: ChildProcess, instructions: string, sink: LogSink, exited: Exited): Promise<Ran> {
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
    return { verdict: verdict(entry, code, signal, sink.lastStderrLine), report: null, usage: null, spoke: sink.tail.length > 0 };
  }

  /**
   * An `acp` agent: one prompt turn through driveAcpAgent. Each session/update becomes an entry of
   * its own type, a permission request a question, and the agent's stderr `output` entries.
   */
  private async driveAcp(
    entry: Active,
    execution: Claimed,
    agent: AgentSnapshot,
    run: {
      child: ChildProcess;
      cwd: string;
      instructions: string;
      secret: string;
      sink: LogSink;
      exited: Exited;
      sessionMeta: Record<string, unknown> | null;
    },
  ): Promise<Ran> {
    const { child, sink } = run;
    child.stderr!.on("data", (chunk: Buffer) => sink.write("stderr", chunk));
    const usage = new UsageTally();
    const report = new ReportText();
    let spoke = false;
    const resume = await previousSession(this.db, execution);
    let result: Verdict;
    try {
      const outcome = await driveAcpAgent({
        child,
        cwd: run.cwd,
        instructions: run.instructions,
        resumeSessionId: resume,
        sessionMeta: run.sessionMeta,
        // The board's own MCP server, as the run's agent token, where the agent can reach MCP over HTTP.
        mcpServers: (init) =>
          init.agentCapabilities?.mcpCapabilities?.http
            ? [
                {
                  type: "http",
                  name: "taskboard",
                  url: `${apiUrl()}/api/mcp`,
                  headers: [{ name: "Authorization", value: `Bearer ${run.secret}` }],
                },
              ]
            : [],
        onSession: (sessionId, resumed) => void this.recordSession(execution.id, sessionId, resumed),
        onModel: (model) => void recordRunModel(this.db, execution, model),
        onUpdate: (update) => {
          usage.see(update);
          report.see(update);
          if (SPEAKING.has(update.sessionUpdate)) spoke = true;
          sink.push(update.sessionUpdate, update as unknown as Record<string, unknown>, JSON.stringify(update).length);
        },
        onPermission: (request, signal) => this.askPermission(execution, request, signal, sink),
        signal: entry.abort.signal,
      });
      usage.seeResponse(outcome.usage);
      sink.push("stop", { stop_reason: outcome.stopReason });
      result =
        outcome.stopReason === "end_turn"
          ? { status: RUN_STATUS.succeeded, exitCode: null, errorMessage: null }
          : { status: RUN_STATUS.failed, exitCode: null, errorMessage: `the agent stopped its turn: ${outcome.stopReason}` };
    } catch (error) {
      const message = error instanceof AcpError ? error.message : describeAcpFailure(error);
      if (!entry.stop) sink.push("error", { message });
      result = { status: RUN_STATUS.failed, exitCode: null, errorMessage: `${agent.name}: ${message}` };
    }
    // The turn is over: the adapter has nothing left to do, so its group is stopped (SIGKILL after the grace).
    stopGroup(child.pid!, killGraceMs());
    const { code } = await Promise.race([run.exited, delay(killGraceMs() + 1000).then(() => ({ code: null }))]);
    if (entry.stop) result = { status: entry.stop.status, exitCode: code, errorMessage: entry.stop.message };
    else result = { ...result, exitCode: code };
    return { verdict: result, report: report.text(), usage: usage.value(), spoke };
  }

  /**
   * A permission request: a question on the task, the run waiting_for_input until a person answers
   * on any instance (the event wake-up, or the slow poll, rereads the row), then the chosen option.
   * A cancel (signal) answers `cancelled`.
   */
  private async askPermission(execution: Claimed, request: RequestPermissionRequest, signal: AbortSignal, sink: LogSink) {
    const { question, options, title } = await raisePermissionQuestion(this.db, execution, request);
    const listed = options.map((o) => ({ id: o.option_id, name: o.name, kind: o.kind }));
    sink.push("permission", { question_id: question.id, title, options: listed, tool_call: request.toolCall });
    let answer: string | null = null;
    try {
      while (!signal.aborted) {
        const seen = await waitForAnswer(this.db, execution.workspaceId, question.id, MAX_WAIT_SECONDS, signal);
        if (seen.status === QUESTION_STATUS.answered) {
          answer = seen.answer;
          break;
        }
      }
    } catch {
      // The question was deleted: the request is answered cancelled.
    }
    const chosen = signal.aborted ? null : chosenOption(options, answer);
    await settlePermissionQuestion(this.db, execution, question.id);
    sink.push("permission", {
      question_id: question.id,
      title,
      options: listed,
      outcome: chosen ? { outcome: "selected", option_id: chosen.option_id, name: chosen.name } : { outcome: "cancelled" },
    });
    return { optionId: chosen?.option_id ?? null };
  }

  private async recordSession(executionId: string, sessionId: string, loaded: boolean) {
    try {
      await this.db.$transaction(async (tx) => {
        const updated = await tx.execution.update({
          where: { id: executionId },
          data: { acpSessionId: sessionId, acpSessionLoaded: loaded },
        });
        await recordEvents(tx, updated.workspaceId, [executionEvent(updated)]);
      });
    } catch (error) {
      console.error(`[taskboard] execution ${executionId}: could not record its ACP session: ${(error as Error).message}`);
    }
  }

  /**
   * Cancel and timeout. An ACP agent first gets session/cancel (a pending permission is answered
   * `cancelled`) and a moment to end its turn; then, as for any agent, SIGTERM to its process
   * group and SIGKILL after the grace period.
   */
  private terminate(entry: Active, status: StopStatus, message: string) {
    if (entry.stop) return;
    entry.stop = { status, message };
    entry.abort.abort();
    const pid = entry.child?.pid;
    if (!pid) return;
    if (entry.acp) entry.timers.push(setTimeout(() => stopGroup(pid, killGraceMs()), ACP_CANCEL_MS));
    else stopGroup(pid, killGraceMs());
  }

  /** A cancel handled by another instance marks the row; the owner sees it here and stops the process. */
  private async stopCancelledElsewhere() {
    if (this.active.size === 0) return;
    const stopped = await this.db.execution.findMany({
      where: { id: { in: [...this.active.keys()] }, status: { notIn: [...STARTED_RUN_STATUSES] } },
      select: { id: true, errorMessage: true },
    });
    for (const row of stopped) {
      const entry = this.active.get(row.id);
      if (entry) this.terminate(entry, RUN_STATUS.cancelled, row.errorMessage ?? "cancelled");
    }
  }

  private notifyStarted(executionId: string) {
    for (const done of [...(this.startWaiters.get(executionId) ?? [])]) done();
    this.startWaiters.delete(executionId);
  }
}

function verdict(entry: Active, code: number | null, signal: NodeJS.Signals | null, lastStderr: string): Verdict {
  if (entry.stop) return { status: entry.stop.status, exitCode: code, errorMessage: entry.stop.message };
  if (code === 0) return { status: RUN_STATUS.succeeded, exitCode: 0, errorMessage: null };
  const why = code !== null ? `the agent exited with code ${code}` : `the agent was killed by signal ${signal}`;
  return { status: RUN_STATUS.failed, exitCode: code, errorMessage: lastStderr ? `${why}: ${lastStderr}` : why };
}

/**
 * The agent's report, if it wrote one as a regular file: a symlink (O_NOFOLLOW) or a device, fifo
 * or directory is ignored, so an agent cannot have the server copy one of its own files (the
 * database, auth-secret) into a report. At most REPORT_MAX_BYTES are read.
 */
export function readReport(file: string): string | null {
  let handle: number | undefined;
  try {
    handle = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(handle).isFile()) return null;
    const buffer = Buffer.alloc(REPORT_MAX_BYTES);
    const size = fs.readSync(handle, buffer, 0, REPORT_MAX_BYTES, 0);
    const text = buffer.subarray(0, size).toString("utf8");
    return text.trim() ? text : null;
  } catch {
    return null;
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
