import { withWorkspaceRead } from "@/lib/api/handler";
import { boardRead } from "@/lib/tasks/load-tasks";
import { boardQuery } from "@/lib/tasks/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The first page of every column in one request (and one SQL statement).
export const GET = withWorkspaceRead({ params: workspaceParams, query: boardQuery }, ({ query }) =>
  boardRead(query.limit, { assignee: query.assignee, q: query.q, project_id: query.project_id, tag: query.tag, priority: query.priority }),
);
