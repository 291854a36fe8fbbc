"use client";

import { useQuery } from "@tanstack/react-query";
import { dependenciesQuery, useSetBlocker } from "@/lib/client/dependencies";
import type { DependencyTask, Task } from "@/lib/client/types";
import { ErrorText } from "@/components/ui/field";
import { statusTitle, TaskPicker } from "@/components/ui/task-picker";
import { SectionState } from "@/components/ui/section-state";

// The task dialog's "Dependencies": what the task waits for (blockers, removable), what waits for
// it (dependants), and a combobox that finds a new blocker by title (components/ui/task-picker.tsx).

export function TaskDependencies({ workspaceId, task }: { workspaceId: string; task: Task }) {
  const dependencies = useQuery(dependenciesQuery(workspaceId, task.id));
  const setBlocker = useSetBlocker(workspaceId, task.id);

  return (
    <section aria-labelledby="task-dependencies" className="mt-6">
      <h3 id="task-dependencies" className="mb-2 text-sm font-semibold">
        Dependencies
      </h3>
      <SectionState query={dependencies} what="the dependencies" skeleton="spinner">
        {(data) => (
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <h4 className="mb-1 text-xs font-semibold text-slate-600 uppercase dark:text-slate-400">Blocked by</h4>
              {data.blocked_by.length === 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-400">Nothing: this task waits for no other task.</p>
              ) : (
                <ul aria-label="Blockers" className="space-y-1">
                  {data.blocked_by.map((blocker) => (
                    <li key={blocker.id} className="flex items-center gap-2 text-sm">
                      <TaskLine task={blocker} />
                      <button
                        type="button"
                        className="ml-auto rounded px-1.5 text-xs text-red-800 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
                        aria-label={`Remove blocker #${blocker.number} ${blocker.title}`}
                        disabled={setBlocker.isPending}
                        onClick={() => setBlocker.mutate({ blockerId: blocker.id, blocked: false })}
                      >
                        Remove
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h4 className="mb-1 text-xs font-semibold text-slate-600 uppercase dark:text-slate-400">Blocks</h4>
              {data.blocks.length === 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-400">No task waits for this one.</p>
              ) : (
                <ul aria-label="Dependants" className="space-y-1">
                  {data.blocks.map((dependant) => (
                    <li key={dependant.id} className="flex items-center gap-2 text-sm">
                      <TaskLine task={dependant} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="sm:col-span-2">
              <TaskPicker
                workspaceId={workspaceId}
                label="Add a blocker"
                placeholder={`Search titles for a task #${task.number} waits for`}
                exclude={new Set([task.id, ...data.blocked_by.map((b) => b.id)])}
                busy={setBlocker.isPending}
                onPick={(blocker) => setBlocker.mutate({ blockerId: blocker.id, blocked: true })}
              />
              <ErrorText>{setBlocker.error ? `Not changed: ${setBlocker.error.message}` : ""}</ErrorText>
            </div>
          </div>
        )}
      </SectionState>
    </section>
  );
}

function TaskLine({ task }: { task: DependencyTask }) {
  const done = task.status === "done";
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span className="text-slate-600 dark:text-slate-400">#{task.number}</span>
      <span className={`truncate ${done ? "text-slate-500 line-through dark:text-slate-400" : ""}`}>{task.title}</span>
      <span
        className={`shrink-0 rounded px-1.5 py-0.5 text-xs ${done ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200"}`}
      >
        {statusTitle(task.status)}
      </span>
    </span>
  );
}
