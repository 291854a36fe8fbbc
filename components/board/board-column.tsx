"use client";

import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from "react";
import { columnQueryOptions } from "@/lib/client/board";
import { flatItems } from "@/lib/client/board-cache";
import type { Card, ColumnSort } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";
import { SortableTaskCard } from "@/components/board/task-card";
import { QuickAdd, type QuickAddFilter } from "@/components/board/quick-add";
import { SortControl } from "@/components/board/sort-control";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

// Under this many loaded cards a plain list is cheaper than measuring; past it, only the visible
// cards are in the DOM so a column of thousands scrolls as smoothly as one of ten.
const VIRTUALIZE_FROM = 40;

export interface ColumnHandle {
  focusQuickAdd: () => void;
}

export const BoardColumn = forwardRef<
  ColumnHandle,
  {
    workspaceId: string;
    column: ColumnKey;
    title: string;
    sort: ColumnSort;
    onSortChange: (sort: ColumnSort) => void;
    /** The server-side filters as a query string ("" for none): lib/client/board-filters.ts. */
    filter: string;
    /** What a quick add gives a new task so the filter keeps it in view. */
    quickAddFilter: QuickAddFilter;
    /** Not the column a phone shows (column-tabs.tsx). */
    hiddenOnPhone: boolean;
    onOpen: (taskId: string) => void;
    /** False until the board's first pages have seeded the column caches. */
    enabled: boolean;
  }
>(function BoardColumn({ workspaceId, column, title, sort, onSortChange, filter, quickAddFilter, hiddenOnPhone, onOpen, enabled }, ref) {
  const query = useInfiniteQuery({ ...columnQueryOptions(workspaceId, column, sort, filter), enabled });
  const quickAddRef = useRef<HTMLInputElement>(null);
  const { readOnly } = useWorkspaceUi();
  useImperativeHandle(ref, () => ({ focusQuickAdd: () => quickAddRef.current?.focus() }), []);
  const { setNodeRef: setDropRef, isOver } = useDroppable({ id: `column:${column}`, data: { type: "column", column } });

  // The server filters (the column endpoint's q, assignee, project_id, tag, priority); its total counts the matches.
  const items = useMemo(() => flatItems(query.data), [query.data]);
  const filtered = filter !== "";
  const ids = useMemo(() => items.map((task) => task.id), [items]);
  const total = query.data?.pages[0]?.total ?? 0;
  const headingId = `column-${column}-title`;

  return (
    <section
      ref={setDropRef}
      role="region"
      aria-labelledby={headingId}
      data-column={column}
      className={`flex h-full min-h-0 max-w-80 min-w-56 flex-1 snap-center flex-col rounded-xl max-md:max-w-none max-md:min-w-[85%] max-md:shrink-0 max-sm:min-w-full ${hiddenOnPhone ? "max-sm:hidden" : ""} bg-slate-100 dark:bg-slate-900/60 ${isOver ? "ring-2 ring-blue-500" : ""}`}
    >
      {/* One row at every width from 1024 px: the sort control is kept narrow so the longest title fits. */}
      <header className="flex items-center gap-1.5 px-3 pt-3 pb-2">
        <h2 id={headingId} className="min-w-0 truncate text-sm font-semibold whitespace-nowrap" title={title}>
          {title}
        </h2>
        <span
          data-testid="column-total"
          aria-label={`${total} tasks`}
          className="rounded-full bg-slate-200 px-2 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
        >
          {query.isPending ? "…" : total}
        </span>
        <SortControl column={title} sort={sort} onChange={onSortChange} />
      </header>
      {readOnly ? null : <QuickAdd ref={quickAddRef} workspaceId={workspaceId} column={column} title={title} filter={quickAddFilter} />}
      <div className="flex min-h-0 flex-1 flex-col">
        {query.isPending ? (
          <div aria-busy="true" aria-label={`Loading ${title}`} className="space-y-2 px-3 pb-3">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-20 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
            ))}
          </div>
        ) : query.isError ? (
          <div role="alert" className="mx-3 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            Could not load {title}: {query.error.message}{" "}
            <button type="button" className="underline" onClick={() => query.refetch()}>
              Try again
            </button>
          </div>
        ) : items.length === 0 ? (
          <p className="mx-3 mb-3 rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
            {filtered ? "No task matches the filter." : `No tasks. Add one above or drag a card here.`}
          </p>
        ) : (
          <SortableContext id={column} items={ids} strategy={verticalListSortingStrategy}>
            <CardList
              items={items}
              column={column}
              sortable={sort.by === "position" && !filtered}
              onOpen={onOpen}
              hasMore={Boolean(query.hasNextPage)}
              loadingMore={query.isFetchingNextPage}
              loadMore={() => {
                if (query.hasNextPage && !query.isFetchingNextPage) query.fetchNextPage();
              }}
            />
          </SortableContext>
        )}
      </div>
    </section>
  );
});

function CardList({
  items,
  column,
  sortable,
  onOpen,
  hasMore,
  loadingMore,
  loadMore,
}: {
  items: Card[];
  column: ColumnKey;
  sortable: boolean;
  onOpen: (taskId: string) => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = items.length >= VIRTUALIZE_FROM;
  const virtualizer = useVirtualizer({
    count: virtual ? items.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 92,
    gap: 8,
    overscan: 8,
    getItemKey: (index) => items[index]?.id ?? index,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastVisible = virtual ? (virtualItems.at(-1)?.index ?? 0) : -1;

  // Virtual list: ask for the next page when the last rendered card is near the end.
  useEffect(() => {
    if (virtual && hasMore && lastVisible >= items.length - 8) loadMore();
  }, [virtual, hasMore, lastVisible, items.length, loadMore]);

  // Plain list: a sentinel below the last card does the same.
  const sentinelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (virtual || !hasMore || !sentinel) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), {
      root: scrollRef.current,
      rootMargin: "200px",
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [virtual, hasMore, loadMore, items.length]);

  return (
    <div ref={scrollRef} data-testid={`column-scroll-${column}`} className="min-h-0 flex-1 overflow-y-auto px-3 pb-3">
      {virtual ? (
        <div role="list" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualItems.map((row) => {
            const task = items[row.index];
            return (
              <div
                key={row.key}
                role="listitem"
                data-index={row.index}
                ref={virtualizer.measureElement}
                style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${row.start}px)` }}
              >
                <SortableTaskCard task={task} column={column} onOpen={onOpen} sortable={sortable} />
              </div>
            );
          })}
        </div>
      ) : (
        <ul className="space-y-2">
          {items.map((task) => (
            <li key={task.id}>
              <SortableTaskCard task={task} column={column} onOpen={onOpen} sortable={sortable} />
            </li>
          ))}
        </ul>
      )}
      {hasMore ? <div ref={sentinelRef} className="h-1" /> : null}
      {loadingMore ? (
        <p role="status" className="py-2 text-center text-xs text-slate-600 dark:text-slate-400">
          Loading more…
        </p>
      ) : hasMore ? (
        <button
          type="button"
          onClick={loadMore}
          className="w-full py-2 text-center text-xs text-blue-800 hover:underline dark:text-blue-300"
        >
          Load more
        </button>
      ) : null}
    </div>
  );
}
