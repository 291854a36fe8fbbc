"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useId, useState } from "react";
import { taskSearchQuery } from "@/lib/client/dependencies";
import type { Task } from "@/lib/client/types";
import { COLUMNS } from "@/lib/tasks/columns";
import { inputClass } from "@/components/ui/field";

// Finds a task by title (ARIA 1.2 combobox pattern: arrows move through the options, Enter picks,
// Escape closes the list before the dialog around it). Used for a blocker and a schedule's task.

export function TaskPicker({
  workspaceId,
  label,
  placeholder,
  exclude = new Set(),
  busy = false,
  onPick,
}: {
  workspaceId: string;
  label: string;
  placeholder: string;
  exclude?: Set<string>;
  busy?: boolean;
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
        {label}
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && options[active] ? `${listId}-${options[active].id}` : undefined}
        autoComplete="off"
        placeholder={placeholder}
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
            // Never submits the form around it.
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

export function statusTitle(status: string): string {
  return COLUMNS.find((column) => column.key === status)?.title ?? status;
}
