// Constants the server's schemas and the browser share. No zod here: the browser imports this file
// and should not pull a validation library into the board's bundle for a few strings.

/** The board's columns, in display order; a task's `status` is its column key. */
export const COLUMNS = [
  { key: "backlog", title: "Backlog" },
  { key: "todo", title: "To do" },
  { key: "in_progress", title: "In progress" },
  { key: "in_review", title: "In review" },
  { key: "done", title: "Done" },
] as const;

export const COLUMN_KEYS = ["backlog", "todo", "in_progress", "in_review", "done"] as const;

export type ColumnKey = (typeof COLUMN_KEYS)[number];

/** p0 is the most urgent. */
export const PRIORITIES = ["p0", "p1", "p2", "p3", "p4"] as const;

export type Priority = (typeof PRIORITIES)[number];

export const SORT_FIELDS = ["position", "title", "created_at", "priority", "due_at"] as const;

/** Who a task can belong to: a member of its workspace, or one of its agent profiles. */
export const ASSIGNEE_KINDS = ["user", "agent"] as const;

export type AssigneeKind = (typeof ASSIGNEE_KINDS)[number];

/** At most this many assignees per task. */
export const MAX_ASSIGNEES = 10;

/** The columns where assigning an agent profile starts its run (lib/reactions/start-assigned-agents.ts). */
export const AGENT_START_COLUMNS: readonly ColumnKey[] = ["todo", "in_progress"];
