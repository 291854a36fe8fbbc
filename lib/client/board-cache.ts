import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";
import { boardKeys, decodeColumnKey } from "@/lib/client/query-keys";
import type { Card, CardPage } from "@/lib/client/types";

// The board lives in the TanStack Query cache as one infinite query per column, sort and filter
// (the server filters: lib/client/board-filters.ts). Live events, optimistic
// moves and edits all change those caches through these functions, so the board never refetches a
// whole workspace to show one change. The caches hold cards (lib/tasks/card-schemas.ts); a full task
// record from an event or a write's answer is a card too, and goes in as it is.

export type ColumnData = InfiniteData<CardPage, number>;

export function allColumnCaches(client: QueryClient, workspaceId: string) {
  return client.getQueriesData<ColumnData>({ queryKey: boardKeys.columns(workspaceId) });
}

export function findTask(client: QueryClient, workspaceId: string, taskId: string): Card | undefined {
  for (const [, data] of allColumnCaches(client, workspaceId)) {
    for (const page of data?.pages ?? []) {
      const found = page.items.find((task) => task.id === taskId);
      if (found) return found;
    }
  }
  return undefined;
}

/** Replaces a task's card wherever it is cached (same column). */
export function patchTask(client: QueryClient, workspaceId: string, taskId: string, patch: (task: Card) => Card) {
  for (const [key, data] of allColumnCaches(client, workspaceId)) {
    if (!data || !data.pages.some((page) => page.items.some((task) => task.id === taskId))) continue;
    client.setQueryData<ColumnData>(key, {
      ...data,
      pages: data.pages.map((page) => ({ ...page, items: page.items.map((task) => (task.id === taskId ? patch(task) : task)) })),
    });
  }
}

/**
 * Puts a task where the server says it is: out of every column it is no longer in, into its own
 * column at its place. For sorts other than position the place is only known to the server, so
 * those caches are marked stale instead (returned, so the caller can refetch them).
 */
export function placeTask(client: QueryClient, workspaceId: string, task: Card, options: { at?: { key: QueryKey; index: number } } = {}) {
  const stale: QueryKey[] = [];
  const atHash = options.at ? JSON.stringify(options.at.key) : null;
  for (const [key, data] of allColumnCaches(client, workspaceId)) {
    if (!data) continue;
    const parts = decodeColumnKey(key);
    const here = data.pages.some((page) => page.items.some((item) => item.id === task.id));
    const belongs = parts.column === task.status;
    if (!belongs) {
      if (here) client.setQueryData<ColumnData>(key, withoutTask(data, task.id));
      continue;
    }
    if (parts.filter) {
      // Whether it matches the filter, and where, is the server's to say.
      if (here)
        client.setQueryData<ColumnData>(
          key,
          mapItems(data, (item) => (item.id === task.id ? task : item)),
        );
      stale.push(key);
      continue;
    }
    const base = here ? withoutTask(data, task.id) : data;
    if (atHash === JSON.stringify(key)) {
      client.setQueryData<ColumnData>(key, insertAtIndex(base, task, options.at!.index));
      continue;
    }
    if (parts.sortBy !== "position") {
      // Replace in place when present; where it belongs in this order is the server's to say.
      if (here)
        client.setQueryData<ColumnData>(
          key,
          mapItems(data, (item) => (item.id === task.id ? task : item)),
        );
      else client.setQueryData<ColumnData>(key, withTotal(data, 1));
      stale.push(key);
      continue;
    }
    // A card already on screen stays on screen even when it now sorts past the loaded pages.
    client.setQueryData<ColumnData>(key, insertByPosition(base, task, parts.sortDir === "desc", here));
  }
  return stale;
}

export function removeTask(client: QueryClient, workspaceId: string, taskId: string) {
  for (const [key, data] of allColumnCaches(client, workspaceId)) {
    if (data?.pages.some((page) => page.items.some((task) => task.id === taskId))) {
      client.setQueryData<ColumnData>(key, withoutTask(data, taskId));
    }
  }
}

export function snapshotColumns(client: QueryClient, workspaceId: string) {
  return allColumnCaches(client, workspaceId);
}

export function restoreColumns(client: QueryClient, snapshot: ReturnType<typeof snapshotColumns>) {
  for (const [key, data] of snapshot) client.setQueryData(key, data);
}

export function flatItems(data: ColumnData | undefined): Card[] {
  return data ? data.pages.flatMap((page) => page.items) : [];
}

/** A position between two neighbours (lower and higher position), for the optimistic card until the server answers. */
export function positionBetween(lower: Card | undefined, higher: Card | undefined): number {
  if (lower && higher) return (lower.position + higher.position) / 2;
  if (lower) return lower.position + 1;
  if (higher) return higher.position - 1;
  return 0;
}

function withoutTask(data: ColumnData, taskId: string): ColumnData {
  let removed = 0;
  const pages = data.pages.map((page) => {
    const items = page.items.filter((task) => task.id !== taskId);
    removed += page.items.length - items.length;
    return { ...page, items };
  });
  return withTotal({ ...data, pages }, -removed);
}

function withTotal(data: ColumnData, delta: number): ColumnData {
  if (delta === 0) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, total: Math.max(0, page.total + delta) })) };
}

function mapItems(data: ColumnData, map: (task: Card) => Card): ColumnData {
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(map) })) };
}

function insertByPosition(data: ColumnData, task: Card, descending: boolean, keepLoaded: boolean): ColumnData {
  const goesBefore = (other: Card) => (descending ? other.position < task.position : other.position > task.position);
  for (let p = 0; p < data.pages.length; p++) {
    const index = data.pages[p].items.findIndex(goesBefore);
    if (index >= 0) return insertInto(data, p, index, task);
  }
  const last = data.pages.length - 1;
  // Past the loaded cards of a column with more to load: it will arrive with a later page.
  if (last < 0 || (data.pages[last].has_more && !keepLoaded)) return withTotal(data, 1);
  return insertInto(data, last, data.pages[last].items.length, task);
}

function insertAtIndex(data: ColumnData, task: Card, index: number): ColumnData {
  if (data.pages.length === 0) return data;
  let remaining = index;
  for (let p = 0; p < data.pages.length; p++) {
    const size = data.pages[p].items.length;
    if (remaining <= size) return insertInto(data, p, remaining, task);
    remaining -= size;
  }
  const last = data.pages.length - 1;
  return insertInto(data, last, data.pages[last].items.length, task);
}

function insertInto(data: ColumnData, pageIndex: number, index: number, task: Card): ColumnData {
  const pages = data.pages.map((page, p) => {
    if (p !== pageIndex) return page;
    const items = page.items.slice();
    items.splice(index, 0, task);
    return { ...page, items };
  });
  return withTotal({ ...data, pages }, 1);
}
