import type { Db } from "@/lib/db/client";
import { createNotifications } from "@/lib/notifications/notify";
import { everyAnswerer } from "@/lib/notifications/recipients";

interface Due {
  id: string;
  workspace_id: string;
  task_id: string;
  content: string;
  minutes: number;
  title: string;
}

/**
 * The oldest open question that nobody answered within its workspace's question_escalation_minutes
 * goes to every member who may answer it (owners and members, never viewers), once: escalated_at
 * is set in the same transaction as the notifications. False when none is due.
 */
export async function escalateOneQuestion(db: Db): Promise<boolean> {
  // Looked for outside a transaction first: the worker asks on every event, and mostly none is due.
  const [candidate] = await db.$queryRawUnsafe<{ id: string }[]>(`${DUE} LIMIT 1`, null);
  if (!candidate) return false;
  return db.$transaction(async (tx) => {
    const [due] = await tx.$queryRawUnsafe<Due[]>(`${DUE} LIMIT 1 FOR UPDATE OF q SKIP LOCKED`, candidate.id);
    if (!due) return false; // another instance has it, or it was answered meanwhile
    await tx.question.update({ where: { id: due.id }, data: { escalatedAt: new Date() }, select: { id: true } });
    const audience = await everyAnswerer(tx, due.workspace_id);
    await createNotifications(
      tx,
      audience.map((userId) => ({
        userId,
        workspaceId: due.workspace_id,
        kind: "question" as const,
        source: `escalated:${due.id}`,
        taskId: due.task_id,
        questionId: due.id,
        title: `Still unanswered after ${formatMinutes(due.minutes)}: "${due.title}"`,
        body: due.content,
      })),
    );
    return true;
  });
}

// $1: one question's id, or null for any.
const DUE = `SELECT q.id, q.workspace_id, q.task_id, q.content, w.question_escalation_minutes::float8 AS minutes, t.title
  FROM questions q JOIN workspaces w ON w.id = q.workspace_id JOIN tasks t ON t.id = q.task_id
  WHERE q.status = 'open' AND q.escalated_at IS NULL AND ($1::text IS NULL OR q.id = $1)
    AND q.created_at + make_interval(secs => w.question_escalation_minutes * 60) <= now()
  ORDER BY q.created_at, q.id`;

/** Until the next open question falls due for escalation; null when none waits. */
export async function msUntilNextEscalation(db: Db): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<{ wait_ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(q.created_at + make_interval(secs => w.question_escalation_minutes * 60)) - now())) * 1000)::float8 AS wait_ms
     FROM questions q JOIN workspaces w ON w.id = q.workspace_id
     WHERE q.status = 'open' AND q.escalated_at IS NULL`,
  );
  return row?.wait_ms ?? null;
}

function formatMinutes(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  if (minutes >= 120) return `${Math.round(minutes / 6) / 10} h`;
  return `${Math.round(minutes)} min`;
}
