"use client";

import { useQuery } from "@tanstack/react-query";
import { useCodehostStatus } from "@/lib/client/codehost";
import { useOpenPullRequest } from "@/lib/client/pull-requests";
import { taskRunsQuery } from "@/lib/client/runs";
import type { Task } from "@/lib/client/types";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

// "Open pull request" on a task an agent worked on: shown when the workspace is connected to GitHub,
// the task has a branch and no open pull request, and its last run succeeded with changes on the
// branch. The server pushes the branch and opens the PR (POST …/tasks/{task_id}/pull-request); the
// card follows through the task.updated event like any other change.

export function OpenPullRequestButton({ workspaceId, task }: { workspaceId: string; task: Task }) {
  const codehost = useCodehostStatus(workspaceId);
  const runs = useQuery(taskRunsQuery(workspaceId, task.id));
  const open = useOpenPullRequest(workspaceId, task.id);
  const toast = useToast();
  const last = runs.data?.[0];
  const linked = task.pr_url !== null && (task.pr_state === "open" || task.pr_state === "draft");
  // files_changed is null for runs recorded before the board counted changes: then the server decides.
  const changed = last?.status === RUN_STATUS.succeeded && (last.files_changed ?? 1) > 0;
  if (!codehost.data?.connected || !task.branch || linked || !changed) return null;
  return (
    <button
      type="button"
      className={secondaryButton}
      disabled={open.isPending}
      aria-describedby={`open-pr-hint-${task.id}`}
      onClick={() =>
        open.mutate(undefined, {
          onSuccess: (linkedTask) => toast(`Pull request #${linkedTask.pr_number} is open for “${task.title}”.`, "info"),
          onError: (error) => toast(`Could not open a pull request for “${task.title}”: ${error.message}`, "error"),
        })
      }
    >
      {open.isPending ? "Opening pull request…" : "Open pull request"}
      <span id={`open-pr-hint-${task.id}`} className="sr-only">
        Pushes {task.branch} to {codehost.data.repo} and opens a pull request with the last run&apos;s report
      </span>
    </button>
  );
}
