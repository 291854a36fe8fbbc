import type { OperationSpec } from "@/lib/openapi/types";
import { commentBody, commentPage, commentParams, commentResponse, listCommentsQuery } from "@/lib/comments/schemas";
import { taskParams } from "@/lib/tasks/schemas";

// A task's comments (docs/api.md, "Comments").

const notFound = { description: "Task or comment not found in this workspace, or the caller is not a member" };

export const commentOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}/comments",
    operationId: "listTaskComments",
    summary: "The task's newest comments, oldest first within the page; `before` pages back",
    tags: ["tasks"],
    params: taskParams,
    query: listCommentsQuery,
    responses: { 200: { description: "A page of comments", schema: commentPage }, 404: notFound },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/comments",
    operationId: "createTaskComment",
    summary: "Comment on a task (people and agent tokens; `@agent-name` starts that profile's run)",
    tags: ["tasks"],
    params: taskParams,
    body: commentBody,
    responses: { 201: { description: "The comment", schema: commentResponse }, 403: { description: "A viewer" }, 404: notFound },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/tasks/{task_id}/comments/{comment_id}",
    operationId: "updateTaskComment",
    summary: "Edit a comment (its author only)",
    tags: ["tasks"],
    params: commentParams,
    body: commentBody,
    responses: {
      200: { description: "The comment, `edited: true`", schema: commentResponse },
      403: { description: "Not its author, or a viewer" },
      404: notFound,
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/tasks/{task_id}/comments/{comment_id}",
    operationId: "deleteTaskComment",
    summary: "Delete a comment (its author only)",
    tags: ["tasks"],
    params: commentParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Not its author, or a viewer" }, 404: notFound },
  },
];
