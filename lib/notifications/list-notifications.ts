import type { Db } from "@/lib/db/client";
import type { z } from "zod";
import type { listNotificationsQuery, NotificationResponse } from "@/lib/notifications/schemas";
import type { NotificationKind } from "@/lib/notifications/kinds";

type Query = z.output<typeof listNotificationsQuery>;

interface Row {
  id: string;
  kind: string;
  workspace_id: string;
  workspace_name: string | null;
  task_id: string | null;
  question_id: string | null;
  execution_id: string | null;
  title: string;
  body: string;
  read_at: Date | null;
  created_at: Date;
  q_status: string | null;
  q_options: unknown;
  q_answer: string | null;
}

/** A person's inbox, newest first, paged; with the unread count (the bell's) and the page's total. */
export async function listNotifications(db: Db, userId: string, query: Query) {
  const unreadOnly = query.unread === true;
  const [rows, counts] = await Promise.all([
    db.$queryRawUnsafe<Row[]>(
      `SELECT n.id, n.kind, n.workspace_id, w.name AS workspace_name, n.task_id, n.question_id, n.execution_id, n.title, n.body,
              n.read_at, n.created_at, q.status AS q_status, q.options AS q_options, q.answer AS q_answer
       FROM notifications n
       LEFT JOIN workspaces w ON w.id = n.workspace_id
       LEFT JOIN questions q ON q.id = n.question_id
       WHERE n.user_id = $1 AND ($2::boolean = false OR n.read_at IS NULL)
       ORDER BY n.created_at DESC, n.id DESC
       LIMIT $3 OFFSET $4`,
      userId,
      unreadOnly,
      query.limit,
      query.offset,
    ),
    unreadAndTotal(db, userId),
  ]);
  return {
    items: rows.map(serialize),
    total: unreadOnly ? counts.unread : counts.total,
    unread: counts.unread,
    limit: query.limit,
    offset: query.offset,
  };
}

export async function unreadAndTotal(db: Db, userId: string) {
  const [row] = await db.$queryRawUnsafe<{ total: number; unread: number }[]>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread FROM notifications WHERE user_id = $1`,
    userId,
  );
  return row;
}

function serialize(row: Row): NotificationResponse {
  const options = typeof row.q_options === "string" ? (JSON.parse(row.q_options) as unknown) : row.q_options;
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    workspace_id: row.workspace_id,
    workspace_name: row.workspace_name,
    task_id: row.task_id,
    question_id: row.question_id,
    run_id: row.execution_id,
    title: row.title,
    body: row.body,
    read_at: row.read_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    question:
      row.question_id && row.q_status
        ? { status: row.q_status, options: Array.isArray(options) ? options.map(String) : null, answer: row.q_answer }
        : null,
  };
}
