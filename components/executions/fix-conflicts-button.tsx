"use client";

import { useFixConflicts } from "@/lib/client/runs";
import type { Card } from "@/lib/client/types";
import { useToast } from "@/components/ui/toast";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

export function FixConflictsButton({ task, compact = false }: { task: Pick<Card, "id" | "title">; compact?: boolean }) {
  const ui = useWorkspaceUi();
  const toast = useToast();
  const start = useFixConflicts(ui.workspaceId, task.id, {
    started: (execution) => ui.watchExecution(execution.id, `Fixing conflicts: ${task.title}`),
    failed: (error) => toast(`Could not start fixing conflicts on “${task.title}”: ${error.message}`, "error"),
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
