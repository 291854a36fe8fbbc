"use client";

import { useEffect, useReducer, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { RunLogModel } from "@/lib/client/run-log-model";
import { ACTIVE_RUN_STATUSES, type LogEntry, type RunLogPage } from "@/lib/client/types";

// A run's structured log in the browser: caught up with GET …/executions/{id}/log page by page,
// then kept current by the `log` batches that `execution.log` events carry (the workspace event
// stream hands them over through publishLogBatch). A batch that starts beyond what we hold (a
// dropped event) triggers a read from where we are; overlapping batches are skipped by seq.

export interface LogBatch {
  offset: number;
  entries: LogEntry[];
}

const PAGE = 10_000;
const listeners = new Map<string, Set<(batch: LogBatch) => void>>();

/** Called by the workspace event stream for each execution.log that carries log entries. */
export function publishLogBatch(executionId: string, batch: LogBatch) {
  for (const listener of listeners.get(executionId) ?? []) listener(batch);
}

export interface RunLogState {
  model: RunLogModel;
  /** Changes whenever the model did: the view re-reads the model's rows. */
  version: number;
  loading: boolean;
  error: string | null;
  /** Entries stored on the server, as far as we know. */
  total: number;
}

export function useRunLog(workspaceId: string, executionId: string, status: string | undefined): RunLogState {
  const [model] = useState(() => new RunLogModel());
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const readFrom = useRef(0);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);

  useEffect(() => {
    let stopped = false;
    const url = `/api/workspaces/${workspaceId}/executions/${executionId}/log`;

    // One reader at a time; a request for more while it reads makes it read once more.
    const read = () => {
      if (reading.current) {
        again.current = true;
        return;
      }
      reading.current = (async () => {
        try {
          do {
            again.current = false;
            for (;;) {
              const page = await api<RunLogPage>(`${url}?offset=${readFrom.current}&limit=${PAGE}`);
              if (stopped) return;
              if (model.append(page.entries)) bump();
              readFrom.current = Math.max(readFrom.current, page.next_offset);
              setTotal(page.line_count);
              setError(null);
              if (page.entries.length === 0 || page.next_offset >= page.line_count) break;
            }
          } while (again.current && !stopped);
        } catch (failure) {
          if (!stopped) setError(failure instanceof Error ? failure.message : String(failure));
        } finally {
          reading.current = null;
          if (!stopped) setLoading(false);
        }
      })();
    };

    const onBatch = (batch: LogBatch) => {
      if (batch.offset > readFrom.current) return read();
      if (model.append(batch.entries)) bump();
      const last = batch.entries[batch.entries.length - 1];
      if (last) {
        readFrom.current = Math.max(readFrom.current, last.seq + 1);
        setTotal((known) => Math.max(known, readFrom.current));
      }
    };
    const set = listeners.get(executionId) ?? new Set();
    set.add(onBatch);
    listeners.set(executionId, set);
    read();
    return () => {
      stopped = true;
      set.delete(onBatch);
      if (set.size === 0) listeners.delete(executionId);
    };
  }, [workspaceId, executionId, model]);

  // The last entries may follow the last event: read once more when the run has finished.
  const finished = Boolean(status) && !ACTIVE_RUN_STATUSES.has(status!);
  useEffect(() => {
    if (!finished) return;
    let cancelled = false;
    api<RunLogPage>(`/api/workspaces/${workspaceId}/executions/${executionId}/log?offset=${readFrom.current}&limit=${PAGE}`)
      .then((page) => {
        if (cancelled) return;
        if (model.append(page.entries)) bump();
        readFrom.current = Math.max(readFrom.current, page.next_offset);
        setTotal(page.line_count);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [finished, workspaceId, executionId, model]);

  return { model, version, loading, error, total };
}
