import type { Workspace } from "@/lib/generated/prisma/client";

export function serializeWorkspace(row: Workspace) {
  return {
    id: row.id,
    name: row.name,
    auto_start_unblocked: row.autoStartUnblocked,
    auto_move_tasks: row.autoMoveTasks,
    auto_start_assigned: row.autoStartAssigned,
    max_concurrent_runs: row.maxConcurrentRuns,
    slack_channel: row.slackChannel,
    question_escalation_minutes: row.questionEscalationMinutes,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
