import type { InvalidateQueryFilters, QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { findTask, patchTask, placeTask } from "@/lib/client/board-cache";
import { taskKeys } from "@/lib/client/query-keys";
import type { Task } from "@/lib/client/types";

// Reads that events arrive during (docs/architecture.md, "Reads and events in the browser's cache").
// The event stream (lib/client/use-workspace-events.ts) counts here what it applied; a read that
// saw one arrive about its record may have been answered before it, and is made again.

// How many events that change a task's card were applied, per task. A read of the task that saw
// one arrive while it was under way may have been answered before that event's change (a reaction
// moving the card, say): applying it would put the card back where it was, with no event to come
// to correct it. Such a read is made again instead.
const taskEvents = new Map<string, number>();

// The same for the open questions' list, per workspace: a read of it that saw a question event
// arrive may have been answered before that question was asked (lib/client/questions.ts reads again).
const questionEvents = new Map<string, number>();

export function questionEventsSeen(workspaceId: string): number {
  return questionEvents.get(workspaceId) ?? 0;
}

export function noteQuestionEvent(workspaceId: string) {
  questionEvents.set(workspaceId, questionEventsSeen(workspaceId) + 1);
}

export function noteTaskEvent(taskId: string) {
  taskEvents.set(taskId, (taskEvents.get(taskId) ?? 0) + 1);
}

export function forgetTaskEvents(taskId: string) {
  taskEvents.delete(taskId);
}

const READ_ATTEMPTS = 3;

/**
 * `read`, made again when `events()` (a counter above) moved during it, at most READ_ATTEMPTS times;
 * `current` is false when events kept coming, and the last answer is then as good as any.
 */
export async function readBetweenEvents<T>(events: () => number, read: () => Promise<T>): Promise<{ value: T; current: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const seen = events();
    const value = await read();
    const current = events() === seen;
    if (current || attempt === READ_ATTEMPTS) return { value, current };
  }
}

/** One task, read between events about it. Throws when it is gone. */
function readTask(workspaceId: string, taskId: string) {
  return readBetweenEvents(
    () => taskEvents.get(taskId) ?? 0,
    () => api<Task>(`/api/workspaces/${workspaceId}/tasks/${taskId}`),
  );
}

/**
 * The task dialog's read (taskQuery in lib/client/tasks.ts). Its first answer can come after an
 * event about the task, which found no record in the cache to patch; the answer would then show
 * the task as it was before, with no event to come to correct it.
 */
export async function readTaskRecord(workspaceId: string, taskId: string): Promise<Task> {
  return (await readTask(workspaceId, taskId)).value;
}

/** Fetches one task and puts it in place: the small query to run when an event says too little. */
export async function refreshTask(client: QueryClient, workspaceId: string, taskId: string) {
  let read: Awaited<ReturnType<typeof readTask>>;
  try {
    read = await readTask(workspaceId, taskId);
  } catch {
    return; // Deleted meanwhile: its own event removes it.
  }
  // Events kept coming while it was read: the newest of them is on the card already.
  if (!read.current) return;
  const task = read.value;
  const known = findTask(client, workspaceId, taskId);
  if (known && known.status === task.status) patchTask(client, workspaceId, taskId, (old) => ({ ...old, ...task }));
  else for (const key of placeTask(client, workspaceId, task)) invalidate(client, { queryKey: key, exact: true });
  client.setQueryData(taskKeys.detail(workspaceId, taskId), task);
}

/**
 * Invalidates as an event asks. Invalidating restarts a read under way only when the query has data
 * already; a first read it joins instead, and that read's answer may predate the event (a task
 * dialog's comments read when an agent commented): such a read is invalidated again once it answers.
 */
export function invalidate(client: QueryClient, filters: InvalidateQueryFilters) {
  for (const query of client.getQueryCache().findAll(filters)) {
    if (query.state.data !== undefined || query.state.fetchStatus !== "fetching") continue;
    query.promise?.then(
      () => client.invalidateQueries({ queryKey: query.queryKey, exact: true }),
      () => {},
    );
  }
  void client.invalidateQueries(filters);
}
