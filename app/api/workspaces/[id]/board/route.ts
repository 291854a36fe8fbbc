import { jsonText, withWorkspace } from "@/lib/api/handler";
import { loadBoardJson } from "@/lib/tasks/load-tasks";
import { boardQuery } from "@/lib/tasks/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The first page of every column in one request (and one SQL statement).
export const GET = withWorkspace({ params: workspaceParams, query: boardQuery }, async ({ sql, workspace, query }) =>
  jsonText(await loadBoardJson(sql, workspace.id, query.limit)),
);
