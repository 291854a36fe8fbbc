"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { columnQueryOptions } from "@/lib/client/board";
import type { ColumnSort } from "@/lib/client/types";
import { COLUMNS, type ColumnKey } from "@/lib/tasks/columns";

// On a phone (under 640 px, Tailwind's `sm`) the board shows one column at a time (issue #38):
// these tabs, with each column's count, switch between them. Each tab reads its column's cached
// page (the column itself fetches it), so the counts cost no request.
export function ColumnTabs({
  workspaceId,
  sorts,
  filter,
  value,
  onChange,
}: {
  workspaceId: string;
  sorts: Record<ColumnKey, ColumnSort>;
  filter: string;
  value: ColumnKey;
  onChange: (column: ColumnKey) => void;
}) {
  const move = (event: React.KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = COLUMNS[(index + step + COLUMNS.length) % COLUMNS.length].key;
    onChange(next);
    document.getElementById(`column-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Columns" className="flex gap-1 overflow-x-auto px-3 pb-2 sm:hidden">
      {COLUMNS.map((column, index) => (
        <Tab
          key={column.key}
          id={`column-tab-${column.key}`}
          title={column.title}
          selected={column.key === value}
          total={<Count workspaceId={workspaceId} column={column.key} sort={sorts[column.key]} filter={filter} />}
          onSelect={() => onChange(column.key)}
          onKeyDown={(event) => move(event, index)}
        />
      ))}
    </div>
  );
}

function Tab({
  id,
  title,
  selected,
  total,
  onSelect,
  onKeyDown,
}: {
  id: string;
  title: string;
  selected: boolean;
  total: React.ReactNode;
  onSelect: () => void;
  onKeyDown: (event: React.KeyboardEvent) => void;
}) {
  return (
    <button
      id={id}
      type="button"
      role="tab"
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      onClick={onSelect}
      onKeyDown={onKeyDown}
      className={`flex min-h-11 shrink-0 items-center gap-1.5 rounded-lg px-3 text-sm font-medium whitespace-nowrap ${
        selected ? "bg-blue-700 text-white" : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100"
      }`}
    >
      {title} {total}
    </button>
  );
}

function Count({ workspaceId, column, sort, filter }: { workspaceId: string; column: ColumnKey; sort: ColumnSort; filter: string }) {
  // enabled: false: only reads what the column loaded.
  const query = useInfiniteQuery({ ...columnQueryOptions(workspaceId, column, sort, filter), enabled: false });
  const total = query.data?.pages[0]?.total;
  return <span className="rounded-full bg-black/10 px-1.5 text-xs dark:bg-white/10">{total ?? "…"}</span>;
}
