import type { WorkspaceEvent } from "@/lib/events/event-types";
import { startAutoFixConflicts } from "@/lib/github/sync/start-automatic-run";
import type { Reaction } from "@/lib/reactions/reaction";

type TaskData = { id: string; has_merge_conflict?: boolean };

/**
 * The workspace's auto_fix_conflicts: a task whose open pull request has a merge conflict gets a
 * conflict-fixing run, at most once per head commit (startAutoFixConflicts claims the commit), so
 * seeing the same conflict again — a later edit of the task, a retry — starts nothing new.
 */
export const fixConflicts: Reaction = {
  name: "fix-conflicts",
  description: "Starts a conflict-fixing run when a task's open pull request has a merge conflict (auto_fix_conflicts).",
  types: ["task.updated"],
  match: { field: "has_merge_conflict", values: ["true"] },
  async handle(db, event) {
    const { data, task_id: taskId } = event as WorkspaceEvent<TaskData>;
    if (!taskId || data.has_merge_conflict !== true) return;
    const task = await db.task.findFirst({
      where: {
        id: taskId,
        workspaceId: event.workspace_id,
        hasMergeConflict: true,
        prState: { in: ["open", "draft"] },
        prHeadSha: { not: null },
      },
      select: { id: true, workspaceId: true, prUrl: true, prHeadSha: true, workspace: { select: { githubAutoFixConflicts: true } } },
    });
    if (!task?.workspace.githubAutoFixConflicts) return;
    const outcome = await startAutoFixConflicts(db, { id: task.id, workspace_id: task.workspaceId, pr_url: task.prUrl }, task.prHeadSha!);
    console.log(`[taskboard] task ${task.id}: ${outcome}`);
  },
};
