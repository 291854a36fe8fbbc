import type { WorkspaceEvent } from "@/lib/events/event-types";
import { followSuccessfulRun } from "@/lib/github/sync/after-run";
import { previousEventData } from "@/lib/reactions/previous-event";
import type { Reaction } from "@/lib/reactions/reaction";
import { RUN_STATUS, type RunStatus } from "@/lib/runs/statuses";

type ExecutionData = { id: string; status: RunStatus };

/** A run succeeded: its commits go to the task's open pull request, or one is opened (auto_open_pull_request). */
export const githubAfterRun: Reaction = {
  name: "github-after-run",
  description: "After a successful run, pushes its commits to the task's open pull request, or opens one (auto_open_pull_request).",
  types: ["execution.updated"],
  match: { field: "status", values: [RUN_STATUS.succeeded] },
  async handle(db, event) {
    const { data, task_id: taskId } = event as WorkspaceEvent<ExecutionData>;
    if (data.status !== RUN_STATUS.succeeded || !taskId) return;
    const previous = await previousEventData<ExecutionData>(db, taskId, event.id, ["execution.updated"], data.id);
    if (previous?.status === RUN_STATUS.succeeded) return;
    await followSuccessfulRun(db, event.workspace_id, taskId);
  },
};
