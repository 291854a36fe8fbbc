"use client";

import type { ColumnSort, SortBy } from "@/lib/client/types";

// A column's sort: its key (board order, title, dates, priority) and its direction.

const SORT_LABELS: Record<SortBy, string> = {
  position: "Order",
  title: "Title",
  created_at: "Created",
  priority: "Priority",
  due_at: "Due date",
};

export function SortControl({ column, sort, onChange }: { column: string; sort: ColumnSort; onChange: (sort: ColumnSort) => void }) {
  return (
    <div className="ml-auto flex shrink-0 items-center gap-0.5">
      <label className="sr-only" htmlFor={`sort-${column}`}>
        Sort {column} by
      </label>
      <select
        id={`sort-${column}`}
        value={sort.by}
        onChange={(event) => onChange({ ...sort, by: event.target.value as SortBy })}
        className="w-[3.6rem] rounded border border-slate-300 bg-white py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900"
      >
        {Object.entries(SORT_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() => onChange({ ...sort, dir: sort.dir === "asc" ? "desc" : "asc" })}
        // The name and the tooltip both say the order it is in now, then what a press does.
        aria-label={`${column} in ${sort.dir === "asc" ? "ascending" : "descending"} order`}
        title={sort.dir === "asc" ? "Ascending: press for descending" : "Descending: press for ascending"}
        className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900"
      >
        {sort.dir === "asc" ? "↑" : "↓"}
      </button>
    </div>
  );
}
