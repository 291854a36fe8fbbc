"use client";

import { useQuery } from "@tanstack/react-query";
import { executionQuery, useExecutionLogTail } from "@/lib/client/executions";
import { ACTIVE_RUN_STATUSES } from "@/lib/client/types";
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
  const execution = useQuery(executionQuery(workspaceId, executionId));
  const tail = useExecutionLogTail(workspaceId, executionId, execution.data?.line_count ?? 0, execution.data?.status, TAIL_LINES);
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
            <dt className="text-slate-600 dark:text-slate-400">Log entries</dt>
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
