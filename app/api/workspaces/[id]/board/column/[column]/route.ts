import { json, withWorkspace } from "@/lib/api/handler";
import { loadColumns } from "@/lib/tasks/load-tasks";
import { columnParams, columnQuery } from "@/lib/tasks/schemas";

export const GET = withWorkspace({ params: columnParams, query: columnQuery }, async ({ db, workspace, params, query }) => {
  const [column] = await loadColumns(db, workspace.id, [params.column], {
    limit: query.limit,
    offset: query.offset,
    sortBy: query.sort_by,
    sortDir: query.sort_dir,
  });
  return json({ items: column.items, total: column.total, has_more: column.has_more });
});
