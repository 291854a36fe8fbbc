import type { Db } from "@/lib/db/client";
import type { MemberRole } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import type { updateWorkspaceBody } from "@/lib/workspaces/schemas";
import { serializeWorkspace } from "@/lib/workspaces/serialize";

/** The workspace's name and settings (owners). */
export async function updateWorkspace(db: Db, workspaceId: string, role: MemberRole, patch: z.output<typeof updateWorkspaceBody>) {
  const row = await db.workspace.update({
    where: { id: workspaceId },
    data: {
      name: patch.name,
      autoStartUnblocked: patch.auto_start_unblocked,
      autoMoveTasks: patch.auto_move_tasks,
      autoStartAssigned: patch.auto_start_assigned,
      maxConcurrentRuns: patch.max_concurrent_runs,
      slackChannel: patch.slack_channel,
      questionEscalationMinutes: patch.question_escalation_minutes,
    },
  });
  return { ...serializeWorkspace(row), role };
}
