import { notFound } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import type { ActivityItem } from "@/lib/activity/schemas";
import { describeTask, type TaskRef } from "@/lib/dependencies/task-refs";
import type { EventActor, EventType } from "@/lib/events/event-types";
import { COLUMNS } from "@/lib/tasks/columns";

// A task's history from the workspace event log, newest first. `execution.updated` and
// `execution.log` are left out: they repeat for every step and batch of an agent's output, and
// `run.updated` says what a person needs (queued, running, finished). Comments are left out too:
// the task's comments endpoint pages them, and the dialog merges both into one timeline. Both scans say
// `type <> 'execution.log'` literally (the first in its NOT IN): the index on (task_id, id) leaves the
// live log out (migration task_events_index_without_live_log). Retention (lib/events/prune-events.ts) bounds how far back it goes.

interface Row {
  found: boolean;
  id: string | null;
  type: EventType | null;
  actor: EventActor | null;
  at: string | null;
  data: unknown;
  previous: unknown;
}

/** One page, in ONE statement: the task's existence check, `limit + 1` events, each with the task as the event before it left it. */
export async function readActivity(db: Db, workspaceId: string, taskId: string, before: string | undefined, limit: number) {
  const rows = await db.$queryRaw<Row[]>`
    SELECT EXISTS (SELECT 1 FROM tasks t WHERE t.id = ${taskId} AND t.workspace_id = ${workspaceId}) AS found,
           x.id::text AS id, x.type, x.actor, taskboard_iso(x.at) AS at, x.data,
           CASE WHEN x.type IN (${TASK_SNAPSHOT[0]}, ${TASK_SNAPSHOT[1]}) THEN (
             SELECT p.data FROM workspace_events p
             WHERE p.task_id = x.task_id AND p.type <> 'execution.log' AND p.id < x.id AND p.type IN (${TASK_SNAPSHOT[0]}, ${TASK_SNAPSHOT[1]}, ${TASK_SNAPSHOT[2]})
             ORDER BY p.id DESC LIMIT 1) END AS previous
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT e.id, e.type, e.actor, e.at, e.data, e.task_id FROM workspace_events e
      WHERE e.task_id = ${taskId} AND e.workspace_id = ${workspaceId} AND e.type NOT IN ('execution.updated', 'execution.log', 'comment.created', 'comment.updated', 'comment.deleted')
        AND (${before ?? null}::bigint IS NULL OR e.id < ${before ?? null}::bigint)
      ORDER BY e.id DESC
      LIMIT ${limit + 1}
    ) x ON true
    ORDER BY x.id DESC`;
  if (!rows[0]?.found) throw notFound("Task");
  const events = rows.filter((row) => row.id !== null);
  const page = events.slice(0, limit);
  return {
    items: page.map((row) => toItem(taskId, row)),
    next_before: events.length > limit ? page[page.length - 1].id : null,
  };
}

// The events whose payload is the task itself; a task.updated is described by what changed since the one before.
const TASK_SNAPSHOT = ["task.updated", "task.moved", "task.created"] as const;

function toItem(taskId: string, row: Row): ActivityItem {
  const actor = row.actor && row.actor.type !== "system" ? { kind: row.actor.type, id: row.actor.user_id, name: row.actor.username } : null;
  return { id: row.id!, type: row.type!, at: row.at!, actor, summary: summarize(taskId, row), data: row.data };
}

type TaskData = Partial<Record<string, unknown>> & { status?: string };

function summarize(taskId: string, row: Row): string {
  const data = (row.data ?? {}) as Record<string, unknown>;
  switch (row.type) {
    case "task.created": {
      const assigned = assignmentChanges([], data.assignees);
      return `Created the task in ${columnTitle((data as TaskData).status)}${assigned.length ? `, ${assigned[0]}` : ""}`;
    }
    case "task.moved":
      return `Moved to ${columnTitle((data as TaskData).status)}`;
    case "task.updated":
      return describeUpdate(row.previous as TaskData | null, data as TaskData);
    case "task.deleted":
      return "Deleted the task";
    case "task.dependency_added":
    case "task.dependency_removed": {
      const { task, blocker } = data as { task: TaskRef; blocker: TaskRef };
      const added = row.type === "task.dependency_added";
      if (task.id === taskId) return `${added ? "Now blocked by" : "No longer blocked by"} ${describeTask(blocker)}`;
      return `${added ? "Now blocks" : "No longer blocks"} ${describeTask(task)}`;
    }
    case "question.created":
      return `Asked: ${clip(String(data.content ?? ""))}`;
    case "question.answered":
      return `Answered “${clip(String(data.answer ?? ""), 80)}” to: ${clip(String(data.content ?? ""))}`;
    case "question.deleted":
      return "Deleted a question";
    case "run.updated":
      return `Run #${String(data.attempt_number ?? "?")} ${String(data.status ?? "updated")}${data.trigger && data.trigger !== "manual" ? ` (${String(data.trigger)})` : ""}${data.error_message ? `: ${clip(String(data.error_message), 120)}` : ""}`;
    default:
      return String(row.type);
  }
}

// What a person edits, and what GitHub reports about the pull request, in the words the dialog uses.
const FIELDS: [key: string, label: string][] = [
  ["title", "title"],
  ["description", "description"],
  ["priority", "priority"],
  ["tags", "tags"],
  ["project_id", "project"],
  ["phase", "phase"],
  ["branch", "branch"],
  ["blocked", "blocked mark"],
  ["has_merge_conflict", "merge conflict"],
  ["due_at", "due date"],
];

type Assignee = { kind: string; id: string; name: string };

/** "assigned Ada, Claude; unassigned Bob": who came and went between two versions of the task. */
function assignmentChanges(before: unknown, after: unknown): string[] {
  const list = (value: unknown) => (Array.isArray(value) ? (value as Assignee[]) : []);
  const key = (a: Assignee) => `${a.kind}:${a.id}`;
  const had = new Set(list(before).map(key));
  const has = new Set(list(after).map(key));
  const added = list(after).filter((a) => !had.has(key(a)));
  const removed = list(before).filter((a) => !has.has(key(a)));
  const parts: string[] = [];
  if (added.length) parts.push(`assigned ${added.map((a) => a.name).join(", ")}`);
  if (removed.length) parts.push(`unassigned ${removed.map((a) => a.name).join(", ")}`);
  return parts;
}

function describeUpdate(previous: TaskData | null, task: TaskData): string {
  if (!previous) return "Edited the task";
  const parts: string[] = [];
  if (previous.status !== task.status) parts.push(`moved to ${columnTitle(task.status)}`);
  if (previous.pr_url !== task.pr_url) parts.push(task.pr_url ? `linked pull request ${String(task.pr_url)}` : "unlinked the pull request");
  if (previous.pr_state !== task.pr_state && task.pr_state) parts.push(`pull request ${String(task.pr_state)}`);
  if (previous.checks !== task.checks && task.checks) parts.push(`checks ${String(task.checks)}`);
  parts.push(...assignmentChanges(previous.assignees, task.assignees));
  const changed = FIELDS.filter(([key]) => JSON.stringify(previous[key]) !== JSON.stringify(task[key])).map(([, label]) => label);
  if (changed.length > 0) parts.push(`changed ${changed.join(", ")}`);
  if (parts.length === 0) return "Edited the task";
  const text = parts.join("; ");
  return text[0].toUpperCase() + text.slice(1);
}

function columnTitle(status: string | undefined): string {
  return COLUMNS.find((column) => column.key === status)?.title ?? String(status);
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
