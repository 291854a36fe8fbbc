"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { taskSearchQuery } from "@/lib/client/dependencies";
import type { Task } from "@/lib/client/types";
import { COLUMNS } from "@/lib/tasks/columns";
import { Combobox } from "@/components/ui/combobox";

// Finds a task by title, number or description words. Used for a blocker and a schedule's task.

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
  const deferred = useDeferredValue(text.trim());
  const search = useQuery(taskSearchQuery(workspaceId, deferred));
  return (
    <Combobox
      label={label}
      placeholder={placeholder}
      listLabel="Matching tasks"
      text={text}
      onTextChange={setText}
      // Nothing to list before the first letter.
      showList={(open) => open && deferred.length > 0}
      search={{
        options: (search.data?.items ?? []).filter((item) => !exclude.has(item.id)),
        isPending: search.isPending,
        error: search.error,
      }}
      empty={`No other task matches “${deferred}”.`}
      disabled={busy}
      onPick={onPick}
      renderOption={(option) => (
        <>
          <span className="text-slate-600 dark:text-slate-400">#{option.number}</span>
          <span className="truncate">{option.title}</span>
          <span className="ml-auto shrink-0 text-xs text-slate-600 dark:text-slate-400">{statusTitle(option.status)}</span>
        </>
      )}
    />
  );
}

export function statusTitle(status: string): string {
  return COLUMNS.find((column) => column.key === status)?.title ?? status;
}
