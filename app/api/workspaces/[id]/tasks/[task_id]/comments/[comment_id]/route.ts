import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { commentBody, commentParams } from "@/lib/comments/schemas";
import { deleteComment } from "@/lib/comments/delete-comment";
import { updateComment } from "@/lib/comments/update-comment";

export const PATCH = withWorkspace({ params: commentParams, body: commentBody }, async ({ db, workspace, params, body, caller }) =>
  json(await updateComment(db, workspace.id, params.task_id, params.comment_id, body.body, caller)),
);

export const DELETE = withWorkspace({ params: commentParams }, async ({ db, workspace, params, caller }) => {
  await deleteComment(db, workspace.id, params.task_id, params.comment_id, caller);
  return noContent();
});
