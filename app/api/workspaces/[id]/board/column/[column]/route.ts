import { jsonText, withWorkspace } from "@/lib/api/handler";
import { loadColumnJson } from "@/lib/tasks/load-tasks";
import { columnParams, columnQuery } from "@/lib/tasks/schemas";

export const GET = withWorkspace({ params: columnParams, query: columnQuery }, async ({ sql, workspace, params, query }) =>
  jsonText(
    await loadColumnJson(sql, workspace.id, params.column, {
      limit: query.limit,
      offset: query.offset,
      sortBy: query.sort_by,
      sortDir: query.sort_dir,
    }),
  ),
);
