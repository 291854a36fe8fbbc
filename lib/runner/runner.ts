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
import { RUN_STATUS } from "@/lib/runs/statuses";
import { LogSink, type LogBatch } from "@/lib/runner/log-sink";
import { agentEnvironment } from "@/lib/runner/environment";
import { sweepOrphans } from "@/lib/runner/recovery";
import { killGroup, stopGroup } from "@/lib/server/processes";
import { prepareWorkdir } from "@/lib/runs/prepare-workdir";
import { concludeWorkdir } from "@/lib/runs/conclude-workdir";
import type { WorkdirLog } from "@/lib/runs/workdir";
import {
  agentCommand,
  demoAgentCommand,
  killGraceMs,
  logFlushMs,
  maxConcurrent,
  reportsDir,
  runnerPollMs,
  timeoutSeconds,
} from "@/lib/runner/config";

// The runner of one server process. It claims queued executions (FOR UPDATE SKIP LOCKED, so with
// several instances on one PostgreSQL each is claimed once), runs each as a child process in its
// own process group, streams its output into execution_log_chunks in batches, enforces the
// timeout, and records the outcome. AGENT_MAX_CONCURRENT applies per server process.

const REPORT_MAX_BYTES = 64 * 1024;
const CHUNK_MAX_CHARS = 256 * 1024;
const SWEEP_EVERY_MS = 30_000;
/** After the process exits, how long to wait for its pipes to go quiet (a grandchild may hold them). */
const PIPE_QUIET_MS = 2000;

type StopStatus = typeof RUN_STATUS.cancelled | typeof RUN_STATUS.timed_out;
type Claimed = Execution & { task: { title: string; prUrl: string | null } };

interface Active {
  id: string;
  child: ChildProcess | null;
  stop: { status: StopStatus; message: string } | null;
  done: Promise<void>;
  timers: NodeJS.Timeout[];
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
    if (entry?.child?.pid) return Promise.resolve();
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
    const entry: Active = { id: execution.id, child: null, stop: null, done: Promise.resolve(), timers: [] };
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
    const reportFile = path.join(reportsDir(), `${execution.id}.md`);
    fs.mkdirSync(reportsDir(), { recursive: true, mode: 0o700 });
    fs.rmSync(reportFile, { force: true });

    const sink: LogSink = new LogSink(logFlushMs(), (batch): Promise<void> => this.storeBatch(execution, batch, sink));
    // The task's worktree (or scratch directory); git's steps go into the log (lib/runs/prepare-workdir.ts).
    const gitLog: WorkdirLog = (_type, update) => sink.write("stdout", Buffer.from(`git: ${update.message}\n`));
    const prepared = await prepareWorkdir(this.db, execution, gitLog).catch((error: Error) => error);
    if (prepared instanceof Error || prepared.skipAgent) {
      await sink.close();
      const failed = prepared instanceof Error;
      await finishExecution(this.db, execution.id, {
        status: failed ? RUN_STATUS.failed : RUN_STATUS.succeeded,
        errorMessage: failed ? prepared.message : null,
        report: failed ? null : prepared.skipAgent!.report,
        lineCount: sink.lineCount,
        lastActivityAt: sink.lastActivityAt,
      });
      return;
    }
    const workdir = prepared.cwd;
    const instructions = prepared.instructions ?? execution.instructions;
    const child = spawn("/bin/sh", ["-c", agentCommand() ?? demoAgentCommand()], {
      cwd: workdir,
      detached: true, // its own process group (and session), so cancel and timeout reach all of it
      stdio: ["pipe", "pipe", "pipe"],
      env: agentEnvironment({ ...execution, instructions }, { secret, workdir, reportFile }),
    });
    entry.child = child;
    const spawnError = await new Promise<Error | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", resolve);
    });
    if (spawnError) {
      await finishExecution(this.db, execution.id, {
        status: RUN_STATUS.failed,
        errorMessage: `could not start the agent: ${spawnError.message}`,
      });
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
    this.notifyStarted(execution.id);

    entry.timers.push(
      setTimeout(
        () => this.terminate(entry, RUN_STATUS.timed_out, `timed out after ${timeoutSeconds()} s; the process group was killed`),
        timeoutSeconds() * 1000,
      ),
    );
    child.stdin!.on("error", () => {}); // an agent that never reads its instructions closes the pipe early
    child.stdin!.end(instructions);

    let lastData = Date.now();
    const streams = [child.stdout!, child.stderr!];
    const ended = Promise.all(streams.map((stream) => new Promise((resolve) => stream.once("close", resolve))));
    for (const [name, stream] of [
      ["stdout", child.stdout!],
      ["stderr", child.stderr!],
    ] as const) {
      stream.on("data", (chunk: Buffer) => {
        lastData = Date.now();
        if (!sink.write(name, chunk)) {
          for (const s of streams) s.pause();
          void sink.drained().then(() => streams.forEach((s) => s.resume()));
        }
      });
    }

    const { code, signal } = await exited;
    // A grandchild may still hold the pipes: read on while output keeps coming, then let go.
    while ((await Promise.race([ended.then(() => true), delay(250).then(() => false)])) === false) {
      if (Date.now() - lastData > PIPE_QUIET_MS) {
        streams.forEach((s) => s.destroy());
        break;
      }
    }
    // Nothing of the execution outlives it.
    killGroup(pid, "SIGTERM");
    let judged = verdict(entry, code, signal, sink.lastStderrLine);
    const concluded = await concludeWorkdir(this.db, execution, workdir, gitLog, judged.status === RUN_STATUS.succeeded);
    if (concluded.failed && judged.status === RUN_STATUS.succeeded) judged = { ...judged, status: RUN_STATUS.failed, errorMessage: concluded.failed };
    await sink.close();

    const outcome: Outcome = {
      ...judged,
      report: readReport(reportFile) ?? (sink.tail.join("\n") || null),
      lineCount: sink.lineCount,
      lastActivityAt: sink.lastActivityAt,
    };
    fs.rmSync(reportFile, { force: true });
    await finishExecution(this.db, execution.id, outcome);
  }

  private async storeBatch(execution: Claimed, batch: LogBatch, sink: LogSink) {
    const chunks: { executionId: string; firstLine: number; lineCount: number; content: string }[] = [];
    let first = batch.firstLine;
    let lines: string[] = [];
    let size = 0;
    for (const line of batch.lines) {
      if (size + line.length > CHUNK_MAX_CHARS && lines.length > 0) {
        chunks.push({ executionId: execution.id, firstLine: first, lineCount: lines.length, content: lines.join("\n") });
        first += lines.length;
        lines = [];
        size = 0;
      }
      lines.push(line);
      size += line.length + 1;
    }
    if (lines.length > 0) chunks.push({ executionId: execution.id, firstLine: first, lineCount: lines.length, content: lines.join("\n") });
    await this.db.$transaction(async (tx) => {
      await tx.executionLogChunk.createMany({ data: chunks });
      const updated = await tx.execution.update({
        where: { id: execution.id },
        data: { lineCount: batch.firstLine + batch.lines.length, lastActivityAt: sink.lastActivityAt ?? new Date() },
      });
      // Small batches ride along so a watching board shows the lines at once; bigger ones are fetched.
      const log = batch.lines.length <= 100 ? { offset: batch.firstLine, lines: batch.lines } : undefined;
      await recordEvents(tx, updated.workspaceId, [executionEvent(updated, { log })]);
    });
  }

  private terminate(entry: Active, status: StopStatus, message: string) {
    if (entry.stop) return;
    entry.stop = { status, message };
    const pid = entry.child?.pid;
    if (pid) stopGroup(pid, killGraceMs());
  }

  /** A cancel handled by another instance marks the row; the owner sees it here and stops the process. */
  private async stopCancelledElsewhere() {
    if (this.active.size === 0) return;
    const stopped = await this.db.execution.findMany({
      where: { id: { in: [...this.active.keys()] }, status: { not: RUN_STATUS.running } },
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

function verdict(entry: Active, code: number | null, signal: NodeJS.Signals | null, lastStderr: string) {
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
