"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { executionKeys } from "@/lib/client/query-keys";
import { ACTIVE_RUN_STATUSES, type Execution } from "@/lib/client/types";
import { Dialog } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/field";

const TAIL_LINES = 40;

/** Live progress of one execution: its record comes from execution.updated events, the log by offset. */
export function ExecutionDialog({
  workspaceId,
  executionId,
  title,
  onClose,
}: {
  workspaceId: string;
  executionId: string;
  title: string;
  onClose: () => void;
}) {
  const execution = useQuery({
    queryKey: executionKeys.detail(workspaceId, executionId),
    queryFn: () => api<Execution>(`/api/workspaces/${workspaceId}/executions/${executionId}`),
    // Events keep it current; the slow poll only covers a dropped event stream.
    refetchInterval: (query) => (query.state.data && !ACTIVE_RUN_STATUSES.has(query.state.data.status) ? false : 3_000),
  });
  const tail = useLogTail(workspaceId, executionId, execution.data?.line_count ?? 0, execution.data?.status);
  const data = execution.data;
  const active = !data || ACTIVE_RUN_STATUSES.has(data.status);

  return (
    <Dialog open onClose={onClose} title={title} wide>
      <section aria-label="Execution progress" data-testid="execution-progress">
        {execution.isError ? (
          <p role="alert" className="text-sm text-red-800 dark:text-red-300">
            Could not load the execution: {execution.error.message}
          </p>
        ) : null}
        <dl className="mb-4 grid grid-cols-4 gap-3 text-sm">
          <div>
            <dt className="text-slate-600 dark:text-slate-400">Status</dt>
            <dd data-testid="execution-status" className="flex items-center gap-1.5 font-medium">
              {active ? <Spinner label="In progress" /> : null}
              {data?.status ?? "loading"}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600 dark:text-slate-400">Lines of output</dt>
            <dd data-testid="execution-lines" className="font-medium">
              {data?.line_count ?? 0}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600 dark:text-slate-400">Duration</dt>
            <dd className="font-medium">{data?.duration != null ? `${data.duration.toFixed(1)} s` : "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-600 dark:text-slate-400">Exit code</dt>
            <dd className="font-medium">{data?.exit_code ?? "—"}</dd>
          </div>
        </dl>
        {data?.error_message ? (
          <p role="alert" className="mb-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {data.error_message}
          </p>
        ) : null}
        <h3 className="mb-1 text-sm font-semibold">Log (last {TAIL_LINES} lines)</h3>
        <pre
          data-testid="execution-log"
          className="mb-4 max-h-64 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
        >
          {tail.length ? tail.join("\n") : active ? "Waiting for output…" : "No output."}
        </pre>
        {data?.report ? (
          <>
            <h3 className="mb-1 text-sm font-semibold">Report</h3>
            <div
              data-testid="execution-report"
              className="rounded-md border border-slate-200 p-3 text-sm whitespace-pre-wrap dark:border-slate-700"
            >
              {data.report}
            </div>
          </>
        ) : null}
      </section>
    </Dialog>
  );
}

/** Reads the log forward from the last offset whenever the line count grows; keeps the tail. */
function useLogTail(workspaceId: string, executionId: string, lineCount: number, status: string | undefined) {
  const [tail, setTail] = useState<string[]>([]);
  const [tick, setTick] = useState(0);
  const offset = useRef(0);
  const busy = useRef(false);
  const readAfterFinish = useRef(false);

  useEffect(() => {
    const finished = Boolean(status) && !ACTIVE_RUN_STATUSES.has(status!);
    const finalRead = finished && !readAfterFinish.current;
    if (busy.current || (lineCount <= offset.current && !finalRead)) return;
    if (finalRead) readAfterFinish.current = true;
    busy.current = true;
    let progressed = false;
    api<unknown>(`/api/workspaces/${workspaceId}/executions/${executionId}/log?offset=${offset.current}`)
      .then((body) => {
        const { lines, next } = readLog(body, offset.current);
        progressed = next > offset.current;
        offset.current = Math.max(next, offset.current);
        if (lines.length) setTail((old) => [...old, ...lines].slice(-TAIL_LINES));
      })
      .catch(() => {})
      .finally(() => {
        busy.current = false;
        // More lines may have arrived while this read was under way.
        if (progressed) setTick((n) => n + 1);
      });
  }, [workspaceId, executionId, lineCount, status, tick]);

  return tail;
}

function readLog(body: unknown, from: number): { lines: string[]; next: number } {
  if (typeof body === "string") {
    const lines = body.split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
    return { lines, next: from + lines.length };
  }
  const record = (body ?? {}) as { lines?: unknown; content?: unknown; next_offset?: unknown; offset?: unknown };
  const lines = Array.isArray(record.lines)
    ? record.lines.map((line) => (typeof line === "string" ? line : String((line as { text?: string }).text ?? JSON.stringify(line))))
    : typeof record.content === "string"
      ? record.content
          .replace(/\n$/, "")
          .split("\n")
          .filter((_, i, all) => all.length > 1 || all[0] !== "")
      : [];
  const next = typeof record.next_offset === "number" ? record.next_offset : from + lines.length;
  return { lines, next };
}
