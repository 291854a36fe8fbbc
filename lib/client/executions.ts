import { queryOptions } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { executionKeys } from "@/lib/client/query-keys";
import { ACTIVE_RUN_STATUSES, type Execution, type ExecutionLog } from "@/lib/client/types";

// One execution (a process an agent run started): its record and its log.

const executionUrl = (workspaceId: string, executionId: string) => `/api/workspaces/${workspaceId}/executions/${executionId}`;

export function executionQuery(workspaceId: string, executionId: string) {
  return queryOptions({
    queryKey: executionKeys.detail(workspaceId, executionId),
    queryFn: () => api<Execution>(executionUrl(workspaceId, executionId)),
    // Events keep it current; the slow poll only covers a dropped event stream.
    refetchInterval: (query) => (query.state.data && !ACTIVE_RUN_STATUSES.has(query.state.data.status) ? false : 3_000),
  });
}

/**
 * The last `keep` lines of an execution's log. Reads forward from the last offset whenever the line
 * count grows, and once more after the execution finished (its last lines may follow its last event).
 */
export function useExecutionLogTail(workspaceId: string, executionId: string, lineCount: number, status: string | undefined, keep: number) {
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
    api<ExecutionLog>(`${executionUrl(workspaceId, executionId)}/log?offset=${offset.current}`)
      .then((log) => {
        progressed = log.next_offset > offset.current;
        offset.current = Math.max(log.next_offset, offset.current);
        if (log.entries.length) setTail((old) => [...old, ...log.entries.map(entryText)].slice(-keep));
      })
      .catch(() => {})
      .finally(() => {
        busy.current = false;
        // More lines may have arrived while this read was under way.
        if (progressed) setTick((n) => n + 1);
      });
  }, [workspaceId, executionId, lineCount, status, tick, keep]);

  return tail;
}

/** One entry as a line of text: output and agent messages as they are, anything else by its type. */
export function entryText(entry: ExecutionLog["entries"][number]): string {
  const update = entry.update as { text?: unknown; content?: { type?: unknown; text?: unknown }; message?: unknown; title?: unknown };
  if (entry.type === "output" && typeof update.text === "string") return update.text;
  if (typeof update.content?.text === "string") return update.content.text;
  const detail = [update.title, update.message].find((value) => typeof value === "string");
  return detail ? `[${entry.type}] ${detail as string}` : `[${entry.type}]`;
}
