import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { Db } from "@/lib/db/client";
import { hashSecret, newSecret } from "@/lib/auth/tokens";
import { recordEventsOfWorkspaces } from "@/lib/events/record-events";
import { raisePermissionQuestion, settlePermissionQuestion } from "@/lib/questions/permission-question";
import { appendLogEntries, type NewLogEntry } from "@/lib/runs/append-log-entries";
import { agentTokenName, executionEvent } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import type { WorkdirLog } from "@/lib/git/workdir/workdir";
import { buildJob } from "@/lib/runners/build-job";
import type { Job } from "@/lib/runners/protocol-schemas";
import { recordExecutionFacts, recordOutcome } from "@/lib/runners/report-execution";
import { awaitPermissionAnswer } from "@/lib/runners/runner-questions";
import { concludeWorkdir } from "@/lib/git/workdir/conclude-workdir";
import { killGraceMs, timeoutSeconds } from "@/lib/platform/runner-config";
import { prepareWorkdir } from "@/lib/git/workdir/prepare-workdir";
import type { ExecutionFacts, Outcome, RunnerPort } from "@/lib/runner/runner-port";

// The embedded runner's port: the protocol's operations as direct calls of the same domain
// functions the /api/runner routes call, in this server process. Its claims carry no runner and
// no lease; lib/runner/recovery.ts settles them after a restart.

const ANSWER_WAIT_SECONDS = 60;

export class DbPort implements RunnerPort {
  constructor(
    private readonly db: Db,
    private readonly instanceId: string,
  ) {}

  async claim(room: number): Promise<Job[]> {
    const secrets = new Map<string, string>();
    const ids = await this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM executions WHERE status = ${RUN_STATUS.queued}
          AND COALESCE(agent_profile -> 'labels', '[]'::jsonb) = '[]'::jsonb -- it has no labels: a profile that requires some is for a runner that has them
        ORDER BY created_at, id LIMIT ${room}::int FOR UPDATE SKIP LOCKED`;
      const out = [];
      for (const { id } of rows) {
        const now = new Date();
        const execution = await tx.execution.update({
          where: { id },
          data: { status: RUN_STATUS.running, runnerInstance: this.instanceId, startedAt: now },
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
      return out.map(({ execution }) => execution.id);
    });
    return Promise.all(ids.map((id) => buildJob(this.db, id, secrets.get(id) ?? "", { repository: false })));
  }

  /** A cancel handled by another instance marks the row; the owner sees it here and stops the process. */
  async heartbeat(executionIds: string[]) {
    if (executionIds.length === 0) return [];
    const stopped = await this.db.execution.findMany({
      where: { id: { in: executionIds }, status: { notIn: [...STARTED_RUN_STATUSES] } },
      select: { id: true, errorMessage: true },
    });
    return stopped.map((row) => ({ id: row.id, reason: row.errorMessage ?? "cancelled" }));
  }

  async log(executionId: string, entries: NewLogEntry[]) {
    await appendLogEntries(this.db, executionId, entries);
  }

  async update(executionId: string, facts: ExecutionFacts) {
    await recordExecutionFacts(this.db, await this.execution(executionId), facts);
  }

  async ask(executionId: string, request: RequestPermissionRequest) {
    const { question, options, title } = await raisePermissionQuestion(this.db, await this.execution(executionId), request);
    return { question_id: question.id, title, options };
  }

  async answer(executionId: string, questionId: string, signal: AbortSignal) {
    return awaitPermissionAnswer(this.db, await this.execution(executionId), questionId, ANSWER_WAIT_SECONDS, signal);
  }

  async settle(executionId: string, questionId: string) {
    await settlePermissionQuestion(this.db, await this.execution(executionId), questionId);
  }

  async prepare(job: Job, log: WorkdirLog) {
    return prepareWorkdir(this.db, await this.execution(job.execution_id), log);
  }

  async conclude(job: Job, cwd: string, log: WorkdirLog, agentSucceeded: boolean) {
    return concludeWorkdir(this.db, await this.execution(job.execution_id), cwd, log, agentSucceeded);
  }

  async finish(executionId: string, outcome: Outcome) {
    await recordOutcome(this.db, await this.execution(executionId), outcome);
  }

  private execution(id: string) {
    return this.db.execution.findUniqueOrThrow({ where: { id } });
  }
}
