import { json, withWorkspace } from "@/lib/api/handler";
import { commentBody, listCommentsQuery } from "@/lib/comments/schemas";
import { createComment } from "@/lib/comments/create-comment";
import { listComments } from "@/lib/comments/list-comments";
import { taskParams } from "@/lib/tasks/schemas";

export const GET = withWorkspace({ params: taskParams, query: listCommentsQuery }, async ({ db, workspace, params, query }) =>
  json(await listComments(db, workspace.id, params.task_id, query.before, query.limit)),
);

export const POST = withWorkspace({ params: taskParams, body: commentBody }, async ({ db, workspace, params, body, caller }) =>
  json(await createComment(db, workspace.id, params.task_id, body.body, caller), 201),
);
