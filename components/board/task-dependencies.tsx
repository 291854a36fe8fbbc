"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useId, useState } from "react";
import { dependenciesQuery, taskSearchQuery, useSetBlocker } from "@/lib/client/dependencies";
import type { DependencyTask, Task } from "@/lib/client/types";
import { COLUMNS } from "@/lib/tasks/columns";
import { ErrorText, inputClass } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

// The task dialog's "Dependencies": what the task waits for (blockers, removable), what waits for
// it (dependants), and a combobox that finds a new blocker by title (ARIA 1.2 combobox pattern:
// arrows move through the options, Enter picks, Escape closes the list before the dialog).

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
              <BlockerPicker
                workspaceId={workspaceId}
                task={task}
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

function BlockerPicker({
  workspaceId,
  task,
  exclude,
  busy,
  onPick,
}: {
  workspaceId: string;
  task: Task;
  exclude: Set<string>;
  busy: boolean;
  onPick: (task: Task) => void;
}) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(text.trim());
  const search = useQuery(taskSearchQuery(workspaceId, deferred));
  const options = (search.data?.items ?? []).filter((item) => !exclude.has(item.id));
  const listId = useId();
  const inputId = useId();
  const showList = open && deferred.length > 0;
  const pick = (option: Task) => {
    onPick(option);
    setText("");
    setOpen(false);
    setActive(0);
  };

  return (
    <div className="relative">
      <label htmlFor={inputId} className="block text-sm font-medium">
        Add a blocker
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && options[active] ? `${listId}-${options[active].id}` : undefined}
        autoComplete="off"
        placeholder={`Search titles for a task #${task.number} waits for`}
        value={text}
        disabled={busy}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
            if (options.length) setActive((i) => (i + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
          } else if (event.key === "Enter") {
            // Never submits the task form around it.
            event.preventDefault();
            if (showList && options[active]) pick(options[active]);
          } else if (event.key === "Escape" && showList) {
            // Closes the list, not the dialog.
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
          }
        }}
        className={inputClass}
      />
      {showList ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Matching tasks"
          className="absolute z-10 mt-1 max-h-60 w-full overflow-auto rounded border border-slate-300 bg-white shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {search.isPending ? (
            <li className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">Searching…</li>
          ) : search.isError ? (
            <li className="px-3 py-2 text-sm text-red-800 dark:text-red-300">Search failed: {search.error.message}</li>
          ) : options.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">No other task matches “{deferred}”.</li>
          ) : (
            options.map((option, index) => (
              <li
                key={option.id}
                id={`${listId}-${option.id}`}
                role="option"
                aria-selected={index === active}
                // Before the input's blur, so the pick happens.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(option);
                }}
                onMouseEnter={() => setActive(index)}
                className={`flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm ${index === active ? "bg-blue-100 dark:bg-blue-900" : ""}`}
              >
                <span className="text-slate-600 dark:text-slate-400">#{option.number}</span>
                <span className="truncate">{option.title}</span>
                <span className="ml-auto shrink-0 text-xs text-slate-600 dark:text-slate-400">{statusTitle(option.status)}</span>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}

function statusTitle(status: string): string {
  return COLUMNS.find((column) => column.key === status)?.title ?? status;
}
