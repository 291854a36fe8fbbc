import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";

export const eventOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/events",
    operationId: "streamWorkspaceEvents",
    summary:
      "Live changes in the workspace as Server-Sent Events (text/event-stream): task.created, task.updated, " +
      "task.moved, task.deleted, question.created, question.answered, question.deleted, run.updated, " +
      "execution.updated. Each event's data is JSON {type, workspace_id, data}; comment lines are heartbeats.",
    tags: ["events"],
    params: workspaceParams,
    responses: { 200: { description: "An open text/event-stream of the workspace's events" } },
  },
];
