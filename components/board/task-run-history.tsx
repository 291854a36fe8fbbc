"use client";

import { useQuery } from "@tanstack/react-query";
import { taskRunsQuery, type RunRecord } from "@/lib/client/runs";
import { totalUsage, usageText } from "@/lib/client/usage";
import type { Task } from "@/lib/client/types";
import { SectionState } from "@/components/ui/section-state";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { statusLabel } from "@/components/runs/run-view";

/** Every run of the task, newest first; a row opens the run's live view. */
export function TaskRunHistory({ workspaceId, task }: { workspaceId: string; task: Task }) {
  const ui = useWorkspaceUi();
  const runs = useQuery(taskRunsQuery(workspaceId, task.id));
  return (
    <section aria-labelledby="task-runs" className="mt-6">
      <h3 id="task-runs" className="mb-2 text-sm font-semibold">
        Run history
      </h3>
      <SectionState query={runs} what="the runs" skeleton="spinner" empty="No runs yet. Runs appear when an agent works on this task.">
        {(data) => (
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
              {data.map((run) => (
                <tr
                  key={run.id}
                  data-testid="run-row"
                  className={`border-t border-slate-200 dark:border-slate-800 ${run.execution_id ? "cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800" : ""}`}
                  onClick={() => run.execution_id && ui.watchExecution(run.execution_id, runTitle(run.attempt_number, task))}
                >
                  <td className="py-1">
                    {run.execution_id ? (
                      <button
                        type="button"
                        className="text-blue-800 underline dark:text-blue-300"
                        aria-label={`Open run ${run.attempt_number}`}
                        onClick={(event) => {
                          event.stopPropagation();
                          ui.watchExecution(run.execution_id!, runTitle(run.attempt_number, task));
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
      </SectionState>
      {runs.data ? <UsageTotal runs={runs.data} /> : null}
    </section>
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

function runTitle(attempt: number, task: Task): string {
  return `Run ${attempt} · #${task.number} ${task.title}`;
}
