import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { boardResponse, paginatedCardsResponse } from "@/lib/tasks/card-schemas";
import {
  boardQuery,
  columnParams,
  columnQuery,
  createTaskBody,
  moveTaskBody,
  paginatedTasksResponse,
  taskParams,
  taskResponse,
  taskSearchQuery,
  taskSearchResponse,
  updateTaskBody,
} from "@/lib/tasks/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

const notFound = (what: string) => ({ description: `${what} not found, or the caller is not a member of the workspace` });

export const taskOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/board",
    operationId: "getBoard",
    summary: "The first page (in position order) of every board column, as cards (TaskCard)",
    tags: ["board"],
    params: workspaceParams,
    query: boardQuery,
    responses: { 200: { description: "The five columns in display order", schema: boardResponse }, 404: notFound("Workspace") },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/board/column/{column}",
    operationId: "getBoardColumn",
    summary: "One page of a board column, with board-level enrichment of the tasks",
    tags: ["board"],
    params: columnParams,
    query: columnQuery,
    responses: {
      200: {
        description: "A page of the column: task records (PaginatedTasksResponse), or cards with view=compact (PaginatedCardsResponse)",
        schema: z.union([paginatedTasksResponse, paginatedCardsResponse]),
      },
      404: notFound("Workspace"),
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks",
    operationId: "searchTasks",
    summary: "Tasks whose title contains `search`, in board order (column, then position)",
    tags: ["tasks"],
    params: workspaceParams,
    query: taskSearchQuery,
    responses: { 200: { description: "A page of matches", schema: taskSearchResponse }, 404: notFound("Workspace") },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks",
    operationId: "createTask",
    summary: "Create a task at the end of its column",
    tags: ["tasks"],
    params: workspaceParams,
    body: createTaskBody,
    responses: {
      201: { description: "The new task", schema: taskResponse },
      403: { description: "An agent token sent pr_url (people only)" },
      404: notFound("Workspace or project"),
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/tasks/{task_id}",
    operationId: "getTask",
    summary: "One task, with board-level enrichment",
    tags: ["tasks"],
    params: taskParams,
    responses: { 200: { description: "The task", schema: taskResponse }, 404: notFound("Workspace or task") },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/tasks/{task_id}",
    operationId: "updateTask",
    summary: "Change fields of a task; a new status moves it to the end of that column",
    tags: ["tasks"],
    params: taskParams,
    body: updateTaskBody,
    responses: {
      200: { description: "The updated task", schema: taskResponse },
      403: { description: "An agent token sent branch or pr_url (people only)" },
      404: notFound("Workspace, task or project"),
      409: { description: "The given position is taken, or the task moved meanwhile" },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/tasks/{task_id}",
    operationId: "deleteTask",
    summary: "Delete a task (with its questions and runs)",
    tags: ["tasks"],
    params: taskParams,
    responses: { 204: { description: "Deleted" }, 404: notFound("Workspace or task") },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/move",
    operationId: "moveTask",
    summary: "Drag and drop: place a task in a column between two neighbours",
    tags: ["tasks"],
    params: taskParams,
    body: moveTaskBody,
    responses: {
      200: { description: "The moved task", schema: taskResponse },
      404: notFound("Workspace or task"),
      409: { description: "An anchor is not in the column, or the anchors are no longer adjacent (stale board)" },
    },
  },
];
