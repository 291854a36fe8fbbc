"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ApiClientError } from "@/lib/client/api";
import { executionKeys } from "@/lib/client/query-keys";
import type { Execution, Task } from "@/lib/client/types";
import { useToast } from "@/components/ui/toast";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

export function FixConflictsButton({ task, compact = false }: { task: Task; compact?: boolean }) {
  const ui = useWorkspaceUi();
  const client = useQueryClient();
  const toast = useToast();
  const start = useMutation({
    mutationFn: () => api<Execution>(`/api/workspaces/${ui.workspaceId}/tasks/${task.id}/fix-conflicts`, { method: "POST" }),
    onSuccess: (execution) => {
      client.setQueryData(executionKeys.detail(ui.workspaceId, execution.id), execution);
      ui.watchExecution(execution.id, `Fixing conflicts: ${task.title}`);
    },
    onError: (error) => {
      const why = error instanceof ApiClientError && error.status === 409 ? error.message : error.message;
      toast(`Could not start fixing conflicts on “${task.title}”: ${why}`, "error");
    },
  });
  return (
    <button
      type="button"
      disabled={start.isPending}
      onPointerDown={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.stopPropagation();
        start.mutate();
      }}
      className={`rounded-md border border-red-700 font-medium text-red-800 hover:bg-red-50 disabled:opacity-60 dark:border-red-400 dark:text-red-200 dark:hover:bg-red-950 ${compact ? "px-2 py-0.5 text-xs" : "px-3 py-1.5 text-sm"}`}
    >
      {start.isPending ? "Starting…" : "Fix conflicts"}
    </button>
  );
}
