import type { Db } from "@/lib/db/client";
import type { WorkspaceEvent } from "@/lib/events/event-types";
import type { Reaction } from "@/lib/reactions/reaction";
import { previousEventData } from "@/lib/reactions/previous-event";
import { createNotifications, type NewNotification } from "@/lib/notifications/notify";
import { nudgeNotificationWorker } from "@/lib/notifications/nudge-worker";
import { membersAmong, questionAudience } from "@/lib/notifications/recipients";

interface QuestionData {
  id: string;
  content: string;
  status: string;
}
interface CommentData {
  id: string;
  body: string;
  mentions: string[];
  author: { kind: string; id: string; name: string };
}
interface TaskData {
  id: string;
  title: string;
  assignees?: { kind: string; id: string }[];
  pr_number?: number | null;
  pr_state?: string | null;
  pr_head_sha?: string | null;
  checks?: string | null;
}

/**
 * The notifications of what people did on the board (docs/notifications.md): a question for a
 * task's assignees (or the owners), a mention, an assignment, a pull request merged or failing
 * its checks. Each has a source that is unique per person, so a retried event notifies no one twice;
 * nobody is told of what they did themselves.
 */
export const notifyPeople: Reaction = {
  name: "notify-people",
  description:
    "Notifies people of questions on their tasks, mentions, assignments and their pull requests (merged, checks failed) (docs/notifications.md).",
  types: ["question.created", "comment.created", "task.created", "task.updated"],
  async handle(db, event) {
    const items = await notificationsFor(db, event);
    const actor = event.actor.type === "user" ? event.actor.user_id : null;
    const kept = items.filter((item) => item.userId !== actor || item.kind === "question");
    if (kept.length > 0 && (await db.$transaction((tx) => createNotifications(tx, kept))) > 0) nudgeNotificationWorker();
  },
};

async function notificationsFor(db: Db, event: WorkspaceEvent): Promise<NewNotification[]> {
  const taskId = event.task_id;
  if (!taskId) return [];
  const base = { workspaceId: event.workspace_id, taskId };
  if (event.type === "question.created") {
    const question = event.data as QuestionData;
    if (question.status !== "open") return [];
    const title = await taskTitle(db, event.workspace_id, taskId);
    if (title === null) return [];
    const audience = await questionAudience(db, event.workspace_id, taskId);
    return audience.map((userId) => ({
      ...base,
      userId,
      kind: "question" as const,
      source: `question:${question.id}`,
      questionId: question.id,
      title: `Question on "${title}"`,
      body: question.content,
    }));
  }
  if (event.type === "comment.created") {
    const comment = event.data as CommentData;
    const title = await taskTitle(db, event.workspace_id, taskId);
    if (title === null) return [];
    const named = await membersAmong(db, event.workspace_id, comment.mentions ?? []);
    return named.map((userId) => ({
      ...base,
      userId,
      kind: "mention" as const,
      source: `comment:${comment.id}`,
      title: `${comment.author.name} mentioned you on "${title}"`,
      body: comment.body,
    }));
  }
  return taskNotifications(db, event as WorkspaceEvent<TaskData>);
}

/** Newly assigned people, and a pull request that merged or whose checks failed (assignees, else owners). */
async function taskNotifications(db: Db, event: WorkspaceEvent<TaskData>): Promise<NewNotification[]> {
  const task = event.data;
  if (!task?.title) return [];
  const base = { workspaceId: event.workspace_id, taskId: task.id };
  const previous =
    event.type === "task.updated"
      ? await previousEventData<TaskData>(db, task.id, event.id, ["task.created", "task.updated"], task.id)
      : null;
  const before = new Set((previous?.assignees ?? []).filter((a) => a.kind === "user").map((a) => a.id));
  const added = (task.assignees ?? []).filter((a) => a.kind === "user" && !before.has(a.id)).map((a) => a.id);
  const by = event.actor.username ?? "Someone";
  const items: NewNotification[] = (await membersAmong(db, event.workspace_id, added)).map((userId) => ({
    ...base,
    userId,
    kind: "assignment" as const,
    source: `assigned:${task.id}:${event.id}`,
    title: `${by} assigned you "${task.title}"`,
  }));
  const pr = task.pr_number ? `#${task.pr_number}` : "";
  const prEvents: { source: string; title: string }[] = [];
  if (task.pr_state === "merged")
    prEvents.push({ source: `pr-merged:${task.id}:${task.pr_number}`, title: `Pull request ${pr} merged: "${task.title}"` });
  if (task.checks === "failure")
    prEvents.push({
      source: `checks-failed:${task.id}:${task.pr_head_sha}`,
      title: `Checks failed on pull request ${pr}: "${task.title}"`,
    });
  if (prEvents.length > 0) {
    const audience = await questionAudience(db, event.workspace_id, task.id);
    for (const pe of prEvents) for (const userId of audience) items.push({ ...base, userId, kind: "pull_request", ...pe });
  }
  return items;
}

async function taskTitle(db: Db, workspaceId: string, taskId: string): Promise<string | null> {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { title: true } });
  return task?.title ?? null;
}
