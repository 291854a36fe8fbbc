import { json, withWorkspace } from "@/lib/api/handler";
import { boardUrl } from "@/lib/github/sync/board-url";
import { openTaskPullRequest } from "@/lib/github/sync/open-task-pull-request";
import { openPullRequestBody } from "@/lib/github/sync/schemas";
import { taskParams } from "@/lib/runs/schemas";

// People open pull requests; an agent token may not (humansOnly): what leaves for GitHub is a person's call.
export const POST = withWorkspace(
  { humansOnly: "open pull requests", params: taskParams, body: openPullRequestBody },
  async ({ db, workspace, params, body, request }) => {
    const { created, task } = await openTaskPullRequest(db, workspace.id, params.task_id, {
      boardUrl: boardUrl(request),
      draft: body?.draft,
    });
    return json(task, created ? 201 : 200);
  },
);
