import { withWorkspaceRead } from "@/lib/api/handler";
import { columnPageRead } from "@/lib/tasks/load-tasks";
import { columnParams, columnQuery } from "@/lib/tasks/schemas";

// The interface's column page: full task records by default; `view=compact` is the board's cards.
export const GET = withWorkspaceRead({ params: columnParams, query: columnQuery }, ({ params, query }) =>
  columnPageRead(params.column, { ...query, sortBy: query.sort_by, sortDir: query.sort_dir }, query.view),
);
