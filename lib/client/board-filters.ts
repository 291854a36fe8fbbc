"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { DEFAULT_SORT, type ColumnSort, type SortBy } from "@/lib/client/types";
import { COLUMNS, PRIORITIES, SORT_FIELDS, type ColumnKey } from "@/lib/tasks/columns";

// The board's filters and sorts live in the address (issue #37), so a reload, a shared link and
// Back keep them: `assignee`, `tag`, `priority`, `project_id` and `q` are the board endpoints' own
// parameters (the server filters; lib/tasks/filter-schemas.ts), and `sort` lists the columns not in
// board order as `column:field:dir`, comma-separated. Changes replace the history entry: Back
// leaves the board or closes a task, never undoes a keystroke of the search.

export const FILTER_NAMES = ["assignee", "tag", "priority", "project_id", "q"] as const;
export type BoardFilters = Record<(typeof FILTER_NAMES)[number], string | null>;
export type ColumnSorts = Record<ColumnKey, ColumnSort>;

/** The filters as the column endpoint's query string, in a fixed order ("" for none): part of the cache key. */
export function filterQuery(filters: BoardFilters, meId: string | null): string {
  const query = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name]?.trim();
    if (!value) continue;
    // `me` is kept in the address (a link works for whoever opens it), but keys the cache by id.
    query.set(name, name === "assignee" && value === "me" && meId ? meId : value);
  }
  return query.toString();
}

export function readFilters(params: URLSearchParams): BoardFilters {
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) || null])) as BoardFilters;
  if (filters.priority && !(PRIORITIES as readonly string[]).includes(filters.priority)) filters.priority = null;
  return filters;
}

export function readSorts(value: string | null): ColumnSorts {
  const sorts = Object.fromEntries(COLUMNS.map((c) => [c.key, DEFAULT_SORT])) as ColumnSorts;
  for (const part of (value ?? "").split(",")) {
    const [column, by, dir] = part.split(":");
    if (column in sorts && (SORT_FIELDS as readonly string[]).includes(by) && (dir === "asc" || dir === "desc"))
      sorts[column as ColumnKey] = { by: by as SortBy, dir };
  }
  return sorts;
}

function writeSorts(sorts: ColumnSorts): string | null {
  const parts = COLUMNS.filter((c) => sorts[c.key].by !== DEFAULT_SORT.by || sorts[c.key].dir !== DEFAULT_SORT.dir).map(
    (c) => `${c.key}:${sorts[c.key].by}:${sorts[c.key].dir}`,
  );
  return parts.length ? parts.join(",") : null;
}

function replaceParams(changes: Record<string, string | null>) {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(changes)) {
    if (value) url.searchParams.set(name, value);
    else url.searchParams.delete(name);
  }
  // Next.js keeps useSearchParams in step with the History API (as the open task does).
  window.history.replaceState(null, "", url);
}

/** The board's filters and sorts from the address, and setters that write them back to it. */
export function useBoardFilters() {
  const params = useSearchParams();
  const filters = useMemo(() => readFilters(new URLSearchParams(params.toString())), [params]);
  const sortParam = params.get("sort");
  const sorts = useMemo(() => readSorts(sortParam), [sortParam]);
  const setFilter = useCallback((name: keyof BoardFilters, value: string | null) => replaceParams({ [name]: value }), []);
  const setSort = useCallback(
    (column: ColumnKey, sort: ColumnSort) => replaceParams({ sort: writeSorts({ ...readSorts(sortParam), [column]: sort }) }),
    [sortParam],
  );
  return { filters, sorts, setFilter, setSort };
}

/**
 * The search box's text: it writes `q` to the address a moment after the last keystroke, so typing
 * asks the server once, not per letter.
 */
export function useSearchDraft(q: string | null, setFilter: (name: "q", value: string | null) => void) {
  const [text, setText] = useState(q ?? "");
  useEffect(() => {
    if (text.trim() === (q ?? "")) return;
    const timer = setTimeout(() => setFilter("q", text.trim() || null), 250);
    return () => clearTimeout(timer);
  }, [text, q, setFilter]);
  return [text, setText] as const;
}
