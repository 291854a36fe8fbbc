"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { projectsQuery } from "@/lib/client/projects";
import { taskRunsQuery, type RunRecord } from "@/lib/client/runs";
import { totalUsage, usageText } from "@/lib/client/usage";
import { taskQuery, useDeleteTask, useUpdateTask } from "@/lib/client/tasks";
import type { Task, UpdateTaskInput } from "@/lib/client/types";
import type { Priority } from "@/lib/tasks/columns";
import { PrioritySelect } from "@/components/ui/priority-select";
import { Dialog } from "@/components/ui/dialog";
import { dangerButton, ErrorText, inputClass, primaryButton, secondaryButton, Spinner } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { FixConflictsButton } from "@/components/executions/fix-conflicts-button";
import { OpenPullRequestButton } from "@/components/github/open-pull-request-button";
import { QuestionItem, useAnswer } from "@/components/questions/question-panel";
import { TaskActivity } from "@/components/board/task-activity";
import { TaskDependencies } from "@/components/board/task-dependencies";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { statusLabel } from "@/components/runs/run-view";

interface Draft {
  title: string;
  description: string;
  priority: Priority;
  tags: string;
  project_id: string;
  phase: string;
  pr_url: string;
}

export function TaskDialog({ workspaceId, taskId, onClose }: { workspaceId: string; taskId: string; onClose: () => void }) {
  const toast = useToast();
  const ui = useWorkspaceUi();
  const task = useQuery(taskQuery(workspaceId, taskId));
  const runs = useQuery(taskRunsQuery(workspaceId, taskId));
  const projects = useQuery(projectsQuery(workspaceId));
  // The form edits a copy of the task; until the person types, the copy is the loaded task itself.
  const [edited, setDraft] = useState<Draft | null>(null);
  const draft = edited ?? (task.data ? toDraft(task.data) : null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const save = useUpdateTask(workspaceId, taskId);
  const remove = useDeleteTask(workspaceId, taskId);
  const answer = useAnswer(workspaceId);

  const project = projects.data?.find((p) => p.id === draft?.project_id);
  const questions = task.data?.questions ?? [];

  return (
    <Dialog open onClose={onClose} title={task.data ? `Task #${task.data.number}` : "Loading task…"} wide>
      {task.isPending || !draft ? (
        task.isError ? (
          <ErrorText>Could not load the task: {task.error.message}</ErrorText>
        ) : (
          <div aria-busy="true" className="space-y-3">
            <div className="h-9 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            <div className="h-24 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          </div>
        )
      ) : (
        <>
          <form
            aria-label="Edit task"
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate(fromDraft(draft), {
                onSuccess: (saved) => {
                  setDraft(toDraft(saved));
                  toast("Saved");
                },
              });
            }}
            className="grid grid-cols-2 gap-x-4"
          >
            <label className="col-span-2 mb-3 block text-sm font-medium">
              Title
              <input
                required
                maxLength={500}
                value={draft.title}
                onChange={(e) => setDraft({ ...draft, title: e.target.value })}
                className={inputClass}
              />
            </label>
            <label className="col-span-2 mb-3 block text-sm font-medium">
              Description
              <textarea
                rows={4}
                value={draft.description}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
                className={inputClass}
              />
            </label>
            <PrioritySelect value={draft.priority} onChange={(priority) => setDraft({ ...draft, priority })} className={inputClass} />
            <label className="mb-3 block text-sm font-medium">
              Tags (comma-separated)
              <input value={draft.tags} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} className={inputClass} />
            </label>
            <label className="mb-3 block text-sm font-medium">
              Project
              <select
                value={draft.project_id}
                onChange={(e) => setDraft({ ...draft, project_id: e.target.value, phase: "" })}
                className={inputClass}
              >
                <option value="">No project</option>
                {(projects.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="mb-3 block text-sm font-medium">
              Phase
              <select
                value={draft.phase}
                disabled={!project?.phases?.length}
                onChange={(e) => setDraft({ ...draft, phase: e.target.value })}
                className={inputClass}
              >
                <option value="">No phase</option>
                {(project?.phases ?? []).map((name, index) => (
                  <option key={index} value={String(index + 1)}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="col-span-2 mb-3 block text-sm font-medium">
              Pull request URL
              <input
                type="url"
                value={draft.pr_url}
                onChange={(e) => setDraft({ ...draft, pr_url: e.target.value })}
                placeholder="https://github.com/…/pull/1"
                className={inputClass}
              />
            </label>
            <div className="col-span-2">
              <ErrorText>{save.error ? `Not saved: ${save.error.message}` : ""}</ErrorText>
            </div>
            <div className="col-span-2 flex flex-wrap items-center gap-2">
              <button type="submit" className={primaryButton} disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save"}
              </button>
              <button type="button" className={secondaryButton} onClick={() => ui.runAgent(taskId)}>
                Run agent…
              </button>
              {task.data?.has_merge_conflict ? <FixConflictsButton task={task.data} /> : null}
              {task.data ? <OpenPullRequestButton workspaceId={workspaceId} task={task.data} /> : null}
              <span className="ml-auto" />
              {confirmDelete ? (
                <>
                  <span className="text-sm">Delete this task for everyone?</span>
                  <button
                    type="button"
                    className={dangerButton}
                    onClick={() =>
                      remove.mutate(undefined, {
                        onSuccess: () => {
                          toast(`Deleted “${task.data?.title ?? "task"}”`);
                          onClose();
                        },
                      })
                    }
                    disabled={remove.isPending}
                  >
                    {remove.isPending ? "Deleting…" : "Yes, delete"}
                  </button>
                  <button type="button" className={secondaryButton} onClick={() => setConfirmDelete(false)}>
                    Keep it
                  </button>
                </>
              ) : (
                <button type="button" className={secondaryButton} onClick={() => setConfirmDelete(true)}>
                  Delete…
                </button>
              )}
            </div>
            {remove.error ? (
              <div className="col-span-2 mt-2">
                <ErrorText>Not deleted: {remove.error.message}</ErrorText>
              </div>
            ) : null}
          </form>

          {task.data ? <TaskDependencies workspaceId={workspaceId} task={task.data} /> : null}

          <section aria-labelledby="task-questions" className="mt-6">
            <h3 id="task-questions" className="mb-2 text-sm font-semibold">
              Questions
            </h3>
            {questions.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">No questions on this task.</p>
            ) : (
              <ul className="space-y-2">
                {questions.map((question) => (
                  <QuestionItem key={question.id} question={question} onAnswer={(text) => answer(question, text)} />
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="task-runs" className="mt-6">
            <h3 id="task-runs" className="mb-2 text-sm font-semibold">
              Run history
            </h3>
            {runs.isPending ? (
              <Spinner label="Loading runs" />
            ) : runs.isError ? (
              <p className="text-sm text-red-800 dark:text-red-300">Could not load the runs: {runs.error.message}</p>
            ) : runs.data.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">No runs yet. Runs appear when an agent works on this task.</p>
            ) : (
              <table className="w-full text-left text-sm">
                <thead className="text-xs text-slate-600 dark:text-slate-400">
                  <tr>
                    <th className="py-1">Run</th>
                    <th>Status</th>
                    <th>Agent</th>
                    <th>Trigger</th>
                    <th>Duration</th>
                    <th>Changes</th>
                    <th>Usage</th>
                    <th>Error</th>
                  </tr>
                </thead>
                <tbody>
                  {runs.data.map((run) => (
                    <tr
                      key={run.id}
                      data-testid="run-row"
                      className={`border-t border-slate-200 dark:border-slate-800 ${run.execution_id ? "cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800" : ""}`}
                      onClick={() => run.execution_id && ui.watchExecution(run.execution_id, runTitle(run.attempt_number, task.data))}
                    >
                      <td className="py-1">
                        {run.execution_id ? (
                          <button
                            type="button"
                            className="text-blue-800 underline dark:text-blue-300"
                            aria-label={`Open run ${run.attempt_number}`}
                            onClick={(event) => {
                              event.stopPropagation();
                              ui.watchExecution(run.execution_id!, runTitle(run.attempt_number, task.data));
                            }}
                          >
                            #{run.attempt_number}
                          </button>
                        ) : (
                          `#${run.attempt_number}`
                        )}
                      </td>
                      <td>{statusLabel(run.status)}</td>
                      <td>{run.agent_name ?? "—"}</td>
                      <td>{run.trigger ?? "manual"}</td>
                      <td>{run.duration_seconds != null ? `${run.duration_seconds.toFixed(1)} s` : "—"}</td>
                      <td>
                        {run.files_changed != null ? (
                          <span title={run.commit_sha ?? undefined}>
                            {run.files_changed} files <span className="text-green-800 dark:text-green-300">+{run.lines_added ?? 0}</span>{" "}
                            <span className="text-red-800 dark:text-red-300">−{run.lines_removed ?? 0}</span>
                          </span>
                        ) : (
                          "—"
                        )}
                      </td>
                      <td>{usageText(run.usage) || "—"}</td>
                      <td className="max-w-60 truncate" title={run.error_message ?? ""}>
                        {run.error_message ?? ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {runs.data ? <UsageTotal runs={runs.data} /> : null}
          </section>

          <TaskActivity workspaceId={workspaceId} taskId={taskId} />
        </>
      )}
    </Dialog>
  );
}

/** The task's usage over the runs listed, only as reported (a run that reported nothing is not guessed). */
function UsageTotal({ runs }: { runs: RunRecord[] }) {
  const total = totalUsage(runs);
  if (total.reported === 0) return null;
  return (
    <p data-testid="task-usage" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
      Usage: {total.text}
      {total.reported < runs.length ? ` (reported by ${total.reported} of ${runs.length} runs)` : ""}
    </p>
  );
}

function runTitle(attempt: number, task: Task | undefined): string {
  return task ? `Run ${attempt} · #${task.number} ${task.title}` : `Run ${attempt}`;
}

function toDraft(task: Task): Draft {
  return {
    title: task.title,
    description: task.description,
    priority: task.priority,
    tags: task.tags.join(", "),
    project_id: task.project_id ?? "",
    phase: task.phase != null ? String(task.phase) : "",
    pr_url: task.pr_url ?? "",
  };
}

function fromDraft(draft: Draft): UpdateTaskInput {
  return {
    title: draft.title.trim(),
    description: draft.description,
    priority: draft.priority,
    tags: draft.tags
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean),
    project_id: draft.project_id || null,
    phase: draft.phase === "" ? null : Number(draft.phase),
    pr_url: draft.pr_url.trim() || null,
  };
}
