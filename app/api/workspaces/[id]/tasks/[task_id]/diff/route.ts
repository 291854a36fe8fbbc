import { json, withWorkspace } from "@/lib/api/handler";
import { taskParams } from "@/lib/runs/schemas";
import { taskDiffQuery } from "@/lib/worktrees/schemas";
import { getTaskDiff } from "@/lib/git/worktree/task-diff";

export const GET = withWorkspace({ params: taskParams, query: taskDiffQuery }, async ({ db, workspace, params, query }) =>
  json(await getTaskDiff(db, workspace.id, params.task_id, query.context)),
);
