import type { OperationSpec } from "@/lib/openapi/types";
import { activityQuery, activityResponse } from "@/lib/activity/schemas";
import { dependenciesResponse, dependencyParams } from "@/lib/dependencies/schemas";
import { taskParams, taskResponse } from "@/lib/tasks/schemas";

// Task dependencies (docs/dependencies.md) and a task's activity (docs/activity.md).

export const dependencyOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}/dependencies",
    operationId: "listTaskDependencies",
    summary: "The task's blockers and dependants, with their numbers, titles and statuses",
    tags: ["tasks"],
    params: taskParams,
    responses: {
      200: { description: "Both lists", schema: dependenciesResponse },
      404: { description: "Task not found, or the caller is not a member of the workspace" },
    },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/dependencies/{blocker_id}",
    operationId: "addTaskDependency",
    summary: "Mark the task blocked by another task of the workspace (idempotent)",
    tags: ["tasks"],
    params: dependencyParams,
    responses: {
      200: {
        description:
          "The task (the dependant) with its new `blocked_by`. 422 when the task would block itself, or when the dependency would " +
          "close a cycle: the message names the tasks of the cycle (`#1 “A” → #2 “B” → #1 “A”`) and `ctx.cycle` lists them.",
        schema: taskResponse,
      },
      404: { description: "Task or blocker not found in this workspace, or the caller is not a member" },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/tasks/{task_id}/dependencies/{blocker_id}",
    operationId: "removeTaskDependency",
    summary: "Remove a dependency (idempotent)",
    tags: ["tasks"],
    params: dependencyParams,
    responses: {
      200: { description: "The task (the dependant)", schema: taskResponse },
      404: { description: "Task or blocker not found in this workspace, or the caller is not a member" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}/activity",
    operationId: "getTaskActivity",
    summary: "The task's history from the workspace event log, newest first, paged",
    tags: ["tasks"],
    params: taskParams,
    query: activityQuery,
    responses: {
      200: { description: "A page of entries", schema: activityResponse },
      404: { description: "Task not found, or the caller is not a member of the workspace" },
    },
  },
];
