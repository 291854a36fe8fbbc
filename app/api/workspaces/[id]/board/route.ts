import { json, withWorkspace } from "@/lib/api/handler";
import { loadColumns } from "@/lib/tasks/load-tasks";
import { boardQuery } from "@/lib/tasks/schemas";
import { COLUMNS } from "@/lib/tasks/columns";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The first page of every column in one request (and one SQL statement).
export const GET = withWorkspace({ params: workspaceParams, query: boardQuery }, async ({ db, workspace, query }) => {
  const columns = await loadColumns(
    db,
    workspace.id,
    COLUMNS.map((column) => column.key),
    { limit: query.limit, offset: 0, sortBy: "position", sortDir: "asc" },
  );
  return json({ columns });
});
