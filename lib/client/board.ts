import { infiniteQueryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import type { ColumnData } from "@/lib/client/board-cache";
import { boardKeys, type ColumnQueryKey } from "@/lib/client/query-keys";
import { DEFAULT_SORT, type BoardColumnPage, type CardPage, type ColumnSort } from "@/lib/client/types";
import { rememberBoardCursor } from "@/lib/client/use-workspace-events";
import type { ColumnKey } from "@/lib/tasks/columns";

// The board's reads: the first page of every column in one request, then one infinite query per
// column and sort that pages on from there. Both read cards (lib/tasks/card-schemas.ts), not full
// task records: the task dialog and the run history read a task's details when they open.

export const PAGE_SIZE = 20;

/** `filter`: the board's filters as a query string (filterQuery in lib/client/board-filters.ts), "" for none. */
export function columnQueryOptions(workspaceId: string, column: ColumnKey, sort: ColumnSort, filter = "") {
  return infiniteQueryOptions<CardPage, Error, ColumnData, readonly [ColumnQueryKey], number>({
    queryKey: boardKeys.columnSorted(workspaceId, column, sort, filter),
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({
        limit: String(PAGE_SIZE),
        offset: String(pageParam),
        sort_by: sort.by,
        sort_dir: sort.dir,
        view: "compact",
      });
      for (const [name, value] of new URLSearchParams(filter)) query.set(name, value);
      return api<CardPage>(`/api/workspaces/${workspaceId}/board/column/${column}?${query}`);
    },
    initialPageParam: 0,
    getNextPageParam: (last, all): number | undefined => (last.has_more ? all.reduce((n, page) => n + page.items.length, 0) : undefined),
  });
}

/**
 * Loads the first page of all five columns in one request and seeds each column's own query
 * (default sort) with it. The columns wait for this (`isPending`) so they do not ask one by one.
 */
export function useBoardFirstPages(workspaceId: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: boardKeys.firstPages(workspaceId),
    queryFn: async () => {
      const board = await api<{ columns: BoardColumnPage[]; cursor: string }>(`/api/workspaces/${workspaceId}/board?limit=${PAGE_SIZE}`);
      for (const { key, items, total, has_more } of board.columns) {
        const cacheKey = boardKeys.columnSorted(workspaceId, key, DEFAULT_SORT);
        if (!client.getQueryData(cacheKey))
          client.setQueryData<ColumnData>(cacheKey, { pages: [{ items, total, has_more }], pageParams: [0] });
      }
      // The live stream goes on from what this board shows.
      rememberBoardCursor(workspaceId, board.cursor);
      return true;
    },
    staleTime: Infinity,
    retry: false,
  });
}
