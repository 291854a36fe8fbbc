"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { allColumnCaches, findTask, patchTask, placeTask, removeTask } from "@/lib/client/board-cache";
import { refreshDependencies } from "@/lib/client/dependencies";
import { cacheExecution } from "@/lib/client/executions";
import { publishLogBatch, type LogBatch } from "@/lib/client/run-log";
import { forgetTaskEvents, invalidate, noteQuestionEvent, noteTaskEvent, refreshTask } from "@/lib/client/reads-after-events";
import { boardKeys, executionKeys, questionKeys, scheduleKeys, taskKeys } from "@/lib/client/query-keys";
import type { Execution, Question, Task, TaskRun } from "@/lib/client/types";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { EVENT_TYPES, RECONNECT_EVENT, RESET_EVENT, type EventType, type WorkspaceEvent } from "@/lib/events/event-types";

// Keeps every open page of a workspace current: the server's event stream (the workspace event
// log, read from a cursor) is applied to the TanStack Query cache piece by piece. The stream starts
// at the cursor the board was read at, so nothing committed between the board's load and the
// stream's connection is missed; after a dropped connection EventSource sends Last-Event-ID and the
// server replays what was missed. Only a reader further behind than the log keeps gets `reset`,
// and then refetches. A stopping server ends the stream with `reconnect`: the page opens a new
// stream from the last event it applied, a moment later.

export type LiveState = "connecting" | "live" | "reconnecting";

/** The board calls this with the `cursor` of each GET …/board it loads. */
export function rememberBoardCursor(workspaceId: string, cursor: string) {
  boardCursors.set(workspaceId, cursor);
  for (const listener of cursorListeners) listener();
}

export function useWorkspaceEvents(workspaceId: string): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  // A page without a board streams from "now"; once a board is loaded, from the board's cursor
  // (a board loaded later, e.g. after a reset, restarts the stream from its own cursor; events
  // applied twice leave the cache as applying them once does).
  const boardCursor = useSyncExternalStore(
    subscribeToCursors,
    () => boardCursors.get(workspaceId) ?? null,
    () => null,
  );

  useEffect(() => {
    // The id of the last event applied: a stream opened anew (below) resumes after it.
    let lastId = boardCursor;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const onReset = () => {
      invalidate(client, { queryKey: boardKeys.all(workspaceId) });
      invalidate(client, { queryKey: taskKeys.all(workspaceId) });
      invalidate(client, { queryKey: questionKeys.all(workspaceId) });
      invalidate(client, { queryKey: executionKeys.all(workspaceId) });
      invalidate(client, { queryKey: scheduleKeys.all(workspaceId) });
    };
    const reopen = (delayMs: number) => {
      source?.close();
      setState("reconnecting");
      clearTimeout(timer);
      timer = setTimeout(open, delayMs);
    };
    const open = () => {
      const after = lastId === null ? "" : `?after=${encodeURIComponent(lastId)}`;
      const current = new EventSource(`/api/workspaces/${workspaceId}/events${after}`);
      source = current;
      current.onopen = () => {
        failures = 0;
        setState("live");
      };
      current.onerror = () => {
        setState("reconnecting");
        // EventSource retries a dropped connection by itself, but gives up for good on an answer
        // that is not a stream (a proxy's 502 while the server restarts): then open anew, backing off.
        if (current.readyState === EventSource.CLOSED) reopen(Math.min(30_000, 1000 * 2 ** failures++));
      };
      current.addEventListener(RESET_EVENT, (message: MessageEvent<string>) => {
        lastId = message.lastEventId || lastId;
        onReset();
      });
      // The server is stopping (a deploy, a restart): come back in a moment, spread over a second so
      // a room of open boards does not reconnect at the same instant, to another instance or the new server.
      current.addEventListener(RECONNECT_EVENT, (message: MessageEvent<string>) => {
        let retryMs = 2000;
        try {
          retryMs = Number(JSON.parse(message.data).retry_ms) || retryMs;
        } catch {
          // the default
        }
        reopen(retryMs + Math.random() * 1000);
      });
      for (const type of EVENT_TYPES) {
        current.addEventListener(type, (message: MessageEvent<string>) => {
          lastId = message.lastEventId || lastId;
          try {
            const event = JSON.parse(message.data) as WorkspaceEvent;
            applyEvent(client, workspaceId, type, event.data);
          } catch (error) {
            console.error(`cannot apply ${type}`, error);
          }
        });
      }
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, [client, workspaceId, boardCursor]);

  return state;
}

export function applyEvent(client: QueryClient, workspaceId: string, type: EventType, data: unknown) {
  switch (type) {
    case "task.created":
    case "task.updated":
    case "task.moved": {
      const task = data as Task;
      noteTaskEvent(task.id);
      // A task deleted in the same transaction is logged as its id only.
      if (!task.status) return refreshTask(client, workspaceId, task.id);
      const known = findTask(client, workspaceId, task.id);
      // Its dependants' "blocked by N" changes when it enters or leaves done: the server has the counts.
      const wasDone = (known ?? client.getQueryData<Task>(taskKeys.detail(workspaceId, task.id)))?.status === "done";
      if (known && wasDone !== (task.status === "done")) for (const id of task.blocks ?? []) refreshTask(client, workspaceId, id);
      invalidate(client, { queryKey: taskKeys.activity(workspaceId, task.id) });
      if (type === "task.updated" && known && known.status === task.status && known.position === task.position) {
        patchTask(client, workspaceId, task.id, (old) => ({ ...old, ...task }));
      } else {
        const stale = placeTask(client, workspaceId, known ? { ...known, ...task } : task);
        for (const key of stale) invalidate(client, { queryKey: key, exact: true });
      }
      client.setQueryData<Task>(taskKeys.detail(workspaceId, task.id), (old) => (old ? { ...old, ...task } : old));
      return;
    }
    case "task.dependency_added":
    case "task.dependency_removed": {
      // Logged once for each of the two tasks; each time both are refreshed (small reads, rare events).
      const { task, blocker } = data as { task: { id: string }; blocker: { id: string } };
      for (const id of [task.id, blocker.id]) refreshTask(client, workspaceId, id);
      refreshDependencies(client, workspaceId, [task.id, blocker.id]);
      return;
    }
    case "task.deleted": {
      const { id } = data as { id: string };
      removeTask(client, workspaceId, id);
      forgetTaskEvents(id);
      client.removeQueries({ queryKey: taskKeys.detail(workspaceId, id) });
      return;
    }
    case "question.created":
    case "question.answered":
    case "question.deleted": {
      const question = data as Partial<Question> & { id: string };
      const openList = questionKeys.list(workspaceId);
      client.setQueryData<Question[]>(openList, (old) => {
        if (!old) return old;
        if (type === "question.deleted") return old.filter((q) => q.id !== question.id);
        const exists = old.some((q) => q.id === question.id);
        return exists ? old.map((q) => (q.id === question.id ? { ...q, ...question } : q)) : [...old, question as Question];
      });
      noteQuestionEvent(workspaceId);
      if (question.content === undefined) invalidate(client, { queryKey: openList, exact: true });
      // The answered list pages by answer time: a new answer goes on top, so its pages are read again.
      if (type !== "question.created") invalidate(client, { queryKey: questionKeys.answered(workspaceId) });
      // The card's blocked badge counts open questions: the server knows the count, so ask it.
      if (question.task_id) refreshTask(client, workspaceId, question.task_id);
      return;
    }
    case "comment.created":
    case "comment.updated":
    case "comment.deleted": {
      const comment = data as { task_id?: string };
      if (comment.task_id) invalidate(client, { queryKey: taskKeys.comments(workspaceId, comment.task_id) });
      return;
    }
    case "run.updated": {
      const run = data as TaskRun & { workspace_id?: string };
      noteTaskEvent(run.task_id);
      // The card's summary of its newest run; the runs themselves are the run history's to read.
      patchTask(client, workspaceId, run.task_id, (task) => ({
        ...task,
        latest_run_status: run.status,
        latest_run_error: run.error_message ?? null,
      }));
      invalidate(client, { queryKey: taskKeys.runs(workspaceId, run.task_id) });
      invalidate(client, { queryKey: scheduleKeys.all(workspaceId) });
      return;
    }
    case "execution.updated":
    case "execution.log": {
      // The log batch goes to the open run view (lib/client/run-log.ts); the cache keeps the record only.
      const { log, ...execution } = data as Execution & { log?: LogBatch };
      if (log) publishLogBatch(execution.id, log);
      cacheExecution(client, workspaceId, execution);
      patchRunActivity(client, workspaceId, execution);
      return;
    }
    case "runner.updated":
      return refreshWaitingReasons(client, workspaceId);
  }
}

/** Queued cards on the board at most refreshed one by one; past that, their columns are read again. */
const QUEUED_CARDS_REFRESHED = 20;

/**
 * A runner came online or went away: why queued runs wait (worked out by the server when read) may
 * have changed. The cards with a queued run are read again, and so are the open run views and run
 * histories of queued runs; nothing else is touched.
 */
function refreshWaitingReasons(client: QueryClient, workspaceId: string) {
  const columns = allColumnCaches(client, workspaceId).filter(([, data]) =>
    data?.pages.some((page) => page.items.some((task) => task.latest_run_status === RUN_STATUS.queued)),
  );
  const queued = columns.flatMap(([, data]) =>
    data!.pages.flatMap((page) => page.items.filter((task) => task.latest_run_status === RUN_STATUS.queued).map((task) => task.id)),
  );
  if (queued.length <= QUEUED_CARDS_REFRESHED) for (const id of new Set(queued)) void refreshTask(client, workspaceId, id);
  else for (const [key] of columns) invalidate(client, { queryKey: key, exact: true });
  invalidate(client, {
    queryKey: executionKeys.all(workspaceId),
    predicate: (query) => (query.state.data as Execution | undefined)?.status === RUN_STATUS.queued,
  });
  invalidate(client, { queryKey: taskKeys.all(workspaceId), predicate: (query) => query.queryKey[3] === "runs" });
}

/** A running run's last word on its card ("no output for N min"); written at most every 10 s per card. */
function patchRunActivity(client: QueryClient, workspaceId: string, execution: Execution) {
  if (execution.status !== RUN_STATUS.running || !execution.task_id) return;
  const at = execution.last_activity_at ?? execution.started_at;
  const known = findTask(client, workspaceId, execution.task_id);
  if (!at || !known) return;
  const before = known.latest_run_activity_at ? Date.parse(known.latest_run_activity_at) : 0;
  if (Date.parse(at) - before < 10_000 && known.latest_run_silence_seconds != null) return;
  patchTask(client, workspaceId, execution.task_id, (task) => ({
    ...task,
    latest_run_activity_at: at,
    latest_run_silence_seconds: execution.silence_after_seconds ?? task.latest_run_silence_seconds ?? null,
  }));
}

const boardCursors = new Map<string, string>();
const cursorListeners = new Set<() => void>();

function subscribeToCursors(listener: () => void) {
  cursorListeners.add(listener);
  return () => cursorListeners.delete(listener);
}
