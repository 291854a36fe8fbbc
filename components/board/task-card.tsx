"use client";

import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { memo, useEffect } from "react";
import type { Card } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";
import { Spinner } from "@/components/ui/field";
import { FixConflictsButton } from "@/components/executions/fix-conflicts-button";
import { RunningLabel } from "@/components/runs/run-quiet-note";
import { CardRunnerWait } from "@/components/runs/waiting-for-runner";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { CardBadges } from "@/components/board/card-badges";
import { CardMenu } from "@/components/board/card-menu";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { refocusCard } from "@/components/board/card-focus";
import { useSelection } from "@/components/board/selection";

export interface CardData {
  type: "card";
  task: Card;
  column: ColumnKey;
}

export const SortableTaskCard = memo(function SortableTaskCard({
  task,
  column,
  onOpen,
  sortable,
}: {
  task: Card;
  column: ColumnKey;
  onOpen: (taskId: string) => void;
  sortable: boolean;
}) {
  const { readOnly } = useWorkspaceUi();
  const selection = useSelection();
  const selected = selection.selected.has(task.id);
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: task.id,
    data: { type: "card", task, column } satisfies CardData,
    disabled: { draggable: readOnly, droppable: !sortable },
  });
  const style = { transform: CSS.Translate.toString(transform), transition };
  // A card re-created after a keyboard drop takes the focus back (card-focus.ts).
  useEffect(() => refocusCard(task.id), [task.id]);
  return (
    <div
      ref={setNodeRef}
      style={style}
      {...attributes}
      {...listeners}
      // A group, not dnd-kit's default button: the card holds its own link and buttons (a button may
      // not), and its name is the task title while it shows more text than that.
      role="group"
      aria-roledescription="draggable task"
      aria-label={selected ? `${task.title}, selected` : task.title}
      data-task-id={task.id}
      data-selected={selected || undefined}
      // Shift, Ctrl or Cmd and a click, or `x` on the focused card, selects it for a bulk change (selection-bar.tsx).
      onClick={(event) => {
        if (!readOnly && (event.shiftKey || event.ctrlKey || event.metaKey)) selection.toggle(task);
        else onOpen(task.id);
      }}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return listeners?.onKeyDown?.(event);
        if (event.key === "Enter") {
          event.preventDefault();
          onOpen(task.id);
          return;
        }
        if (event.key === "x" && !readOnly && !event.ctrlKey && !event.metaKey && !event.altKey) {
          event.preventDefault();
          selection.toggle(task);
          return;
        }
        listeners?.onKeyDown?.(event);
      }}
      data-run-state={runState(task) ?? undefined}
      className={`relative cursor-grab touch-none rounded-lg border bg-white p-3 shadow-sm hover:border-slate-400 dark:bg-slate-900 dark:hover:border-slate-500 ${CARD_STATE_STYLE[runState(task) ?? "idle"]} ${isDragging ? "opacity-40" : ""} ${selected ? "bg-blue-50 outline-2 -outline-offset-2 outline-blue-700 dark:bg-blue-950 dark:outline-blue-300" : ""}`}
    >
      <CardMenu task={task} onOpen={onOpen} />
      <CardBody task={task} />
    </div>
  );
});

export function CardBody({ task }: { task: Card }) {
  return (
    <>
      <p className="line-clamp-2 pr-6 text-sm font-medium break-words max-sm:pr-11">
        <span className="mr-1 font-normal text-slate-600 dark:text-slate-400" data-testid="task-number">
          #{task.number}
        </span>
        {task.title}
      </p>
      <CardBadges task={task} />
      {task.pr_url || task.latest_run_status ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
          {task.pr_url ? (
            <a
              href={task.pr_url}
              target="_blank"
              rel="noreferrer"
              onClick={(event) => event.stopPropagation()}
              onPointerDown={(event) => event.stopPropagation()}
              onKeyDown={(event) => event.stopPropagation()}
              className="text-blue-800 underline dark:text-blue-300"
            >
              {prLabel(task.pr_url)}
            </a>
          ) : null}
          {task.pr_state ? (
            <span data-testid="pr-state" className={`rounded px-1.5 py-0.5 font-medium ${PR_STATE_STYLE[task.pr_state]}`}>
              {task.pr_state}
            </span>
          ) : null}
          {task.checks ? (
            <span data-testid="checks-badge" className={`rounded px-1.5 py-0.5 font-medium ${CHECKS_STYLE[task.checks].style}`}>
              {CHECKS_STYLE[task.checks].label}
            </span>
          ) : null}
          {task.has_merge_conflict ? (
            <span
              data-testid="conflict-badge"
              className="rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-900 dark:bg-red-950 dark:text-red-200"
            >
              Merge conflict
            </span>
          ) : null}
          <RunStatus task={task} />
          <CardRunnerWait task={task} />
        </div>
      ) : null}
      {task.has_merge_conflict ? (
        <div className="mt-2">
          <FixConflictsButton task={task} compact />
        </div>
      ) : null}
    </>
  );
}

function RunStatus({ task }: { task: Card }) {
  const status = task.latest_run_status;
  if (!status) return null;
  if (status === RUN_STATUS.waiting_for_input) {
    return (
      <span
        data-testid="run-status"
        className="rounded bg-amber-500 px-1.5 py-0.5 font-semibold text-slate-950"
        title="The agent asked a question: answer it in the question panel or the run's view"
      >
        ⏸ Waiting for input
      </span>
    );
  }
  if (status === RUN_STATUS.running || status === RUN_STATUS.queued) {
    return (
      <span data-testid="run-status" className="flex items-center gap-1 text-slate-700 dark:text-slate-300">
        <Spinner label={status === RUN_STATUS.running ? "Agent running" : "Agent queued"} />{" "}
        {status === RUN_STATUS.running ? <RunningLabel task={task} /> : "Queued"}
      </span>
    );
  }
  if (status === RUN_STATUS.succeeded) {
    return (
      <span data-testid="run-status" className="text-green-800 dark:text-green-300">
        ✓ Run succeeded
      </span>
    );
  }
  return (
    <span
      data-testid="run-status"
      tabIndex={0}
      title={task.latest_run_error ?? status}
      className="cursor-help rounded bg-red-50 px-1.5 py-0.5 text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      ✕ Run {status.replace("_", " ")}
    </span>
  );
}

/** Where people are needed, at a glance: a card waiting for an answer stands out; a running one is marked. */
function runState(task: Card): "waiting" | "running" | null {
  if (task.latest_run_status === RUN_STATUS.waiting_for_input) return "waiting";
  if (task.latest_run_status === RUN_STATUS.running || task.latest_run_status === RUN_STATUS.queued) return "running";
  return null;
}

const CARD_STATE_STYLE = {
  idle: "border-slate-200 dark:border-slate-700",
  running: "border-blue-500 dark:border-blue-400",
  waiting: "border-amber-500 ring-2 ring-amber-400 dark:border-amber-400",
};

/** The card's menu: open it, or start an agent on it. Keys and pointers stay out of the drag. */

const PR_STATE_STYLE: Record<NonNullable<Card["pr_state"]>, string> = {
  open: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  draft: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  merged: "bg-purple-100 text-purple-900 dark:bg-purple-950 dark:text-purple-200",
  closed: "bg-slate-200 text-slate-900 dark:bg-slate-800 dark:text-slate-200",
};

const CHECKS_STYLE: Record<NonNullable<Card["checks"]>, { label: string; style: string }> = {
  pending: { label: "Checks running", style: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200" },
  success: { label: "Checks passed", style: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" },
  failure: { label: "Checks failed", style: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200" },
};

function prLabel(url: string): string {
  const match = /\/pull\/(\d+)/.exec(url);
  return match ? `PR #${match[1]}` : "Pull request";
}
