"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef } from "react";
import type { LogRow } from "@/lib/client/run-log-model";
import { secondaryButton } from "@/components/ui/field";

// The run's log, virtualized: only the rows in view (and a few either side) are in the page, so a
// log of 50,000 entries scrolls like one of fifty (docs/PERFORMANCE.md). Rows have their own
// heights (messages wrap, thoughts open), measured as they render. While the reader is at the
// bottom, new rows keep it there; scrolling up stops that until they come back down.

export function RunLogList({
  rows,
  version,
  pendingQuestions,
  onAnswer,
  answering,
}: {
  rows: readonly LogRow[];
  version: number;
  /** Question ids still open (permission prompts answerable here). */
  pendingQuestions: ReadonlySet<string>;
  onAnswer: (questionId: string, option: string) => void;
  answering: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 12,
    getItemKey: (index) => rows[index]?.key ?? index,
  });

  useLayoutEffect(() => {
    if (following.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  }, [rows.length, version, virtualizer]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <div
      ref={scroller}
      role="log"
      aria-label="Run log"
      aria-live="off"
      tabIndex={0}
      data-testid="run-log"
      className="h-[50vh] overflow-auto rounded-md border border-slate-200 bg-slate-50 text-sm dark:border-slate-800 dark:bg-slate-950"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full px-3 py-1"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row ? (
                <Row
                  row={row}
                  pending={row.kind === "permission" && pendingQuestions.has(row.questionId)}
                  onAnswer={onAnswer}
                  answering={answering}
                />
              ) : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function Row({
  row,
  pending,
  onAnswer,
  answering,
}: {
  row: LogRow;
  pending: boolean;
  onAnswer: (questionId: string, option: string) => void;
  answering: boolean;
}) {
  switch (row.kind) {
    case "message":
      return (
        <p data-testid="log-message" className="break-words whitespace-pre-wrap">
          {row.text}
        </p>
      );
    case "thought":
      return (
        <details className="text-slate-600 dark:text-slate-400">
          <summary className="cursor-pointer text-xs italic">Thought ({row.text.length} characters)</summary>
          <p className="break-words whitespace-pre-wrap italic">{row.text}</p>
        </details>
      );
    case "tool":
      return (
        <div data-testid="log-tool-call" className="flex flex-wrap items-baseline gap-2">
          <span className="rounded bg-slate-200 px-1.5 font-mono text-xs dark:bg-slate-800">{row.toolKind}</span>
          <span className="font-medium">{row.title}</span>
          <span
            data-testid="tool-status"
            className={`rounded px-1.5 text-xs ${TOOL_STATUS_STYLE[row.status] ?? TOOL_STATUS_STYLE.pending}`}
          >
            {TOOL_STATUS_LABEL[row.status] ?? row.status}
          </span>
          {row.detail ? <span className="min-w-0 truncate font-mono text-xs text-slate-600 dark:text-slate-400">{row.detail}</span> : null}
        </div>
      );
    case "plan":
      return <p className="text-xs text-slate-600 dark:text-slate-400">Plan updated · {row.steps} steps</p>;
    case "permission":
      return (
        <div
          data-testid="log-permission"
          className={`rounded-md border px-3 py-2 ${pending ? "border-amber-500 bg-amber-50 dark:bg-amber-950" : "border-slate-200 dark:border-slate-800"}`}
        >
          <p className="font-medium">Permission: {row.title}</p>
          {pending ? (
            <div className="mt-1 flex flex-wrap gap-2" role="group" aria-label={`Answer: ${row.title}`}>
              {row.options.map((option) => (
                <button
                  key={option}
                  type="button"
                  className={secondaryButton}
                  disabled={answering}
                  onClick={() => onAnswer(row.questionId, option)}
                >
                  {option}
                </button>
              ))}
            </div>
          ) : (
            <p className="text-xs text-slate-600 dark:text-slate-400">{row.outcome ? `Answered: ${row.outcome}` : "Answered"}</p>
          )}
        </div>
      );
    case "output":
      return (
        <pre
          className={`font-mono text-xs break-words whitespace-pre-wrap ${row.stream === "stderr" ? "text-red-800 dark:text-red-300" : "text-slate-800 dark:text-slate-200"}`}
        >
          {row.text}
        </pre>
      );
    case "git":
      return (
        <p className="font-mono text-xs text-purple-900 dark:text-purple-200">
          git · {row.step}: {row.message}
          {row.files.length ? ` (${row.files.join(", ")})` : ""}
        </p>
      );
    case "prompt":
      return (
        <details>
          <summary className="cursor-pointer text-xs font-medium">Instructions sent to the agent</summary>
          <p className="mt-1 break-words whitespace-pre-wrap text-slate-700 dark:text-slate-300">{row.text}</p>
        </details>
      );
    case "stop":
      return <p className="text-xs text-slate-600 dark:text-slate-400">Turn ended: {row.reason.replaceAll("_", " ")}</p>;
    case "error":
      return (
        <p role="alert" className="rounded bg-red-50 px-2 py-1 text-red-800 dark:bg-red-950 dark:text-red-200">
          {row.message}
        </p>
      );
    case "other":
      return (
        <p className="truncate font-mono text-xs text-slate-500 dark:text-slate-400" title={row.text}>
          {row.type} {row.text}
        </p>
      );
  }
}

const TOOL_STATUS_LABEL: Record<string, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
};

const TOOL_STATUS_STYLE: Record<string, string> = {
  pending: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  in_progress: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200",
  completed: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};
