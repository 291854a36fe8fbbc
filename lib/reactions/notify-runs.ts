import type { Reaction } from "@/lib/reactions/reaction";
import type { ExecutionResponse } from "@/lib/runs/schemas";
import { agentTokenName } from "@/lib/runs/finish-execution";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { createNotifications } from "@/lib/notifications/notify";
import { nudgeNotificationWorker } from "@/lib/notifications/nudge-worker";
import { membersAmong, taskAssignees } from "@/lib/notifications/recipients";

const OUTCOMES: Record<string, string> = {
  [RUN_STATUS.succeeded]: "succeeded",
  [RUN_STATUS.failed]: "failed",
  [RUN_STATUS.timed_out]: "timed out",
};

/**
 * A run that finished (succeeded, failed, timed out) notifies the person who started it and the
 * task's assignees, once per execution (`run:<id>`), however often its end is logged.
 */
export const notifyRuns: Reaction = {
  name: "notify-runs",
  description: "Notifies the person who started a run, and the task's assignees, when it succeeds or fails (docs/notifications.md).",
  types: ["execution.updated"],
  match: { field: "status", values: Object.keys(OUTCOMES) },
  async handle(db, event) {
    const execution = event.data as ExecutionResponse;
    if (!event.task_id || !OUTCOMES[execution.status]) return;
    const task = await db.task.findFirst({ where: { id: event.task_id, workspaceId: event.workspace_id }, select: { title: true } });
    if (!task) return;
    const token = await db.authToken.findFirst({ where: { kind: "agent", name: agentTokenName(execution.id) }, select: { userId: true } });
    const people = [...(token ? [token.userId] : []), ...(await taskAssignees(db, event.task_id))];
    const recipients = await membersAmong(db, event.workspace_id, people);
    const created = await db.$transaction((tx) =>
      createNotifications(
        tx,
        recipients.map((userId) => ({
          userId,
          workspaceId: event.workspace_id,
          kind: "run_finished" as const,
          source: `run:${execution.id}`,
          taskId: event.task_id,
          executionId: execution.id,
          title: `Run ${OUTCOMES[execution.status]}: ${task.title}`,
          body: execution.error_message ?? "",
        })),
      ),
    );
    if (created > 0) nudgeNotificationWorker();
  },
};
