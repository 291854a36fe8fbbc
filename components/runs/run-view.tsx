"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { executionQuery, useCancelExecution } from "@/lib/client/executions";
import { useOpenQuestions } from "@/lib/client/questions";
import { useRunLog } from "@/lib/client/run-log";
import { settlePermission, type PlanStep, type ReportedUsage } from "@/lib/client/run-log-model";
import { taskRunsQuery, type RunRecord } from "@/lib/client/runs";
import { costText, usageText } from "@/lib/client/usage";
import { ACTIVE_RUN_STATUSES, type Question } from "@/lib/client/types";
import { useAnswer } from "@/components/questions/question-panel";
import { RunLogList } from "@/components/runs/run-log-list";
import { DiffView } from "@/components/runs/diff-view";
import { RunQuietNote } from "@/components/runs/run-quiet-note";
import { WaitingForRunnerNote } from "@/components/runs/waiting-for-runner";
import { Dialog } from "@/components/ui/dialog";
import { ErrorText, secondaryButton, Spinner } from "@/components/ui/field";
import { RUN_STATUS } from "@/lib/runs/statuses";

// One run, live: its status and usage, the questions it waits on (answerable here), the agent's
// latest plan, the structured log (streaming), the diff of the task's branch with review, and the
// report. Fix-conflicts runs and schedule-triggered runs open this same view.

type Tab = "log" | "diff" | "report";

export function RunDialog({
  workspaceId,
  executionId,
  title,
  onClose,
  onWatch,
}: {
  workspaceId: string;
  executionId: string;
  title: string;
  onClose: () => void;
  /** Switches the view to another execution (the follow-up a review started). */
  onWatch: (executionId: string, title: string) => void;
}) {
  return (
    <Dialog open onClose={onClose} title={title} wide="full">
      <RunView workspaceId={workspaceId} executionId={executionId} onWatch={(id) => onWatch(id, `Follow-up: ${title}`)} />
    </Dialog>
  );
}

export function RunView({
  workspaceId,
  executionId,
  onWatch,
}: {
  workspaceId: string;
  executionId: string;
  onWatch: (executionId: string) => void;
}) {
  // executionQuery re-reads an active run every 3 s: while queued, why it waits changes with runners
  // coming and going, which records no event; while running, it covers a dropped event stream.
  const execution = useQuery(executionQuery(workspaceId, executionId));
  const data = execution.data;
  const log = useRunLog(workspaceId, executionId, data?.status);
  const runs = useQuery({ ...taskRunsQuery(workspaceId, data?.task_id ?? ""), enabled: Boolean(data?.task_id) });
  const run = runs.data?.find((candidate) => candidate.id === data?.task_run_id);
  const questions = useOpenQuestions(workspaceId);
  const answer = useAnswer(workspaceId);
  const cancel = useCancelExecution(workspaceId, executionId);
  const [tab, setTab] = useState<Tab>("log");
  const active = !data || ACTIVE_RUN_STATUSES.has(data.status);
  const waiting = data?.status === RUN_STATUS.waiting_for_input;

  // Open questions of this execution, whether the log has shown their prompt yet or not.
  const openById = useMemo(() => new Map((questions.data ?? []).map((q) => [q.id, q])), [questions.data]);
  const pending = useMemo(() => {
    const ids = new Set<string>();
    for (const id of log.model.pendingPermissions()) if (openById.has(id)) ids.add(id);
    for (const question of questions.data ?? []) if (question.execution_id === executionId) ids.add(question.id);
    return ids;
    // log.version: the model changed in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openById, questions.data, executionId, log.version]);

  const respond = (questionId: string, option: string) => {
    const question = openById.get(questionId);
    if (!question) return;
    settlePermission(log.model, questionId, option);
    answer(question, option);
  };

  return (
    <section aria-label="Run" data-testid="run-view">
      {execution.isError ? <ErrorText>Could not load the run: {execution.error.message}</ErrorText> : null}
      <dl className="mb-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Status</dt>
          <dd
            data-testid="run-status-value"
            className={`flex items-center gap-1.5 font-medium ${waiting ? "text-amber-800 dark:text-amber-300" : ""}`}
          >
            {active && !waiting ? <Spinner label="In progress" /> : null}
            {data ? statusLabel(data.status) : "loading"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Agent</dt>
          <dd className="font-medium">{run?.agent_name ?? "Server default"}</dd>
          {run?.model ? (
            <dd data-testid="run-model" className="text-xs text-slate-600 dark:text-slate-400">
              {run.model}
            </dd>
          ) : null}
          {data?.runner_name ? (
            <dd data-testid="run-runner" className="text-xs text-slate-600 dark:text-slate-400">
              Runner: {data.runner_name}
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Duration</dt>
          <dd data-testid="run-duration" className="font-medium">
            {data?.duration != null
              ? `${data.duration.toFixed(1)} s`
              : data?.status === RUN_STATUS.queued
                ? "not started"
                : active
                  ? "running"
                  : "—"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Usage</dt>
          <dd data-testid="run-usage" className="font-medium">
            {runUsageText(run, log.model.usage)}
          </dd>
        </div>
        <div className="flex items-end">
          {active ? (
            <button type="button" className={secondaryButton} disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              {cancel.isPending ? "Cancelling…" : "Cancel run"}
            </button>
          ) : null}
        </div>
      </dl>
      {data?.error_message ? <ErrorText>{data.error_message}</ErrorText> : null}
      {data?.status === RUN_STATUS.queued ? <WaitingForRunnerNote waiting={data.waiting_for_runner} /> : null}
      <RunQuietNote execution={data} noOutput={run?.no_output ?? false} />
      <ErrorText>{cancel.error ? `Not cancelled: ${cancel.error.message}` : null}</ErrorText>

      {pending.size > 0 ? <PendingQuestions questions={[...pending].flatMap((id) => openById.get(id) ?? [])} onAnswer={respond} /> : null}

      {log.model.plan.length > 0 ? <PlanChecklist plan={log.model.plan} /> : null}

      <div role="tablist" aria-label="Run details" className="mb-2 flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {(["log", "diff", "report"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`run-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`run-panel-${name}`}
            onClick={() => setTab(name)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${tab === name ? "border-blue-700 font-medium" : "border-transparent text-slate-600 dark:text-slate-400"}`}
          >
            {TAB_LABEL[name]}
            {name === "log" ? logCount(log.model.nextSeq, log.total) : ""}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`run-panel-${tab}`} aria-labelledby={`run-tab-${tab}`}>
        {tab === "log" ? (
          log.error && log.model.rows.length === 0 ? (
            <ErrorText>Could not read the log: {log.error}</ErrorText>
          ) : log.loading && log.model.rows.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              <Spinner label="Loading the log" /> Loading the log…
            </p>
          ) : log.model.rows.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">{active ? "Waiting for the agent…" : "This run logged nothing."}</p>
          ) : (
            <RunLogList rows={log.model.rows} version={log.version} pendingQuestions={pending} onAnswer={respond} answering={false} />
          )
        ) : tab === "diff" ? (
          data ? (
            <DiffView workspaceId={workspaceId} taskId={data.task_id} agentId={run?.agent_id ?? null} onStarted={onWatch} />
          ) : (
            <Spinner label="Loading the run" />
          )
        ) : data?.report ? (
          <div
            data-testid="run-report"
            className="rounded-md border border-slate-200 p-3 text-sm whitespace-pre-wrap dark:border-slate-700"
          >
            {data.report}
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {active ? "The report comes when the run ends." : "This run left no report."}
          </p>
        )}
      </div>
    </section>
  );
}

function PendingQuestions({ questions, onAnswer }: { questions: Question[]; onAnswer: (questionId: string, option: string) => void }) {
  return (
    <section
      aria-label="The agent is waiting for you"
      className="mb-3 rounded-md border border-amber-500 bg-amber-50 p-3 dark:bg-amber-950"
    >
      <h3 className="mb-1 text-sm font-semibold text-amber-900 dark:text-amber-100">The agent is waiting for your answer</h3>
      <ul className="space-y-2">
        {questions.map((question) => (
          <li key={question.id} data-testid="run-pending-question">
            <p className="text-sm">{question.content}</p>
            <div className="mt-1 flex flex-wrap gap-2" role="group" aria-label={`Answer: ${question.content}`}>
              {(question.options ?? []).map((option) => (
                <button key={option} type="button" className={secondaryButton} onClick={() => onAnswer(question.id, option)}>
                  {option}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PlanChecklist({ plan }: { plan: PlanStep[] }) {
  const done = plan.filter((step) => step.status === "completed").length;
  return (
    <section aria-label="Plan" data-testid="run-plan" className="mb-3 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <h3 className="mb-1 text-sm font-semibold">
        Plan · {done} of {plan.length} done
      </h3>
      <ul className="space-y-0.5 text-sm">
        {plan.map((step, index) => (
          <li key={index} className="flex items-start gap-2">
            <input
              type="checkbox"
              readOnly
              checked={step.status === "completed"}
              aria-label={`${step.content}: ${step.status.replaceAll("_", " ")}`}
              className="mt-1"
            />
            <span
              className={
                step.status === "in_progress"
                  ? "font-medium"
                  : step.status === "completed"
                    ? "text-slate-600 line-through dark:text-slate-400"
                    : ""
              }
            >
              {step.content}
              {step.status === "in_progress" ? " (in progress)" : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const TAB_LABEL: Record<Tab, string> = { log: "Log", diff: "Diff", report: "Report" };

export function statusLabel(status: string): string {
  return status === RUN_STATUS.waiting_for_input ? "waiting for input" : status.replaceAll("_", " ");
}

/** Only figures the agent reported: tokens and cost on the run, else its last usage update. */
function runUsageText(run: RunRecord | undefined, reported: ReportedUsage | null): string {
  const recorded = usageText(run?.usage);
  if (recorded) return recorded;
  const parts: string[] = [];
  if (reported?.used != null) {
    parts.push(`${reported.used.toLocaleString()}${reported.size != null ? ` of ${reported.size.toLocaleString()}` : ""} tokens`);
  }
  if (reported?.cost) parts.push(costText(reported.cost));
  return parts.length ? parts.join(" · ") : "not reported";
}

/** " (n)", or " (read of n)" while a long log is still being read page by page. */
function logCount(read: number, total: number): string {
  return read < total ? ` (${read} of ${total})` : ` (${total})`;
}
