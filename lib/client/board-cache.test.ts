import { QueryClient } from "@tanstack/react-query";
import { beforeEach, describe, expect, it } from "vitest";
import {
  findTask,
  flatItems,
  patchTask,
  placeTask,
  positionBetween,
  removeTask,
  restoreColumns,
  snapshotColumns,
  type ColumnData,
} from "@/lib/client/board-cache";
import { boardKeys, decodeColumnKey } from "@/lib/client/query-keys";
import type { Card, ColumnSort } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// The board's column caches in a real QueryClient: where live events, optimistic moves and edits put a card.

const WS = "ws-1";
const ASC: ColumnSort = { by: "position", dir: "asc" };
const DESC: ColumnSort = { by: "position", dir: "desc" };
const BY_TITLE: ColumnSort = { by: "title", dir: "asc" };

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient();
});

describe("query keys", () => {
  it("decode a column key by name, and the workspace's prefixes match it", () => {
    const key = boardKeys.columnSorted(WS, "todo", DESC);
    expect(decodeColumnKey(key)).toEqual({
      scope: "board",
      workspaceId: WS,
      kind: "column",
      column: "todo",
      sortBy: "position",
      sortDir: "desc",
    });
    seed("todo", DESC, [[task("A", "todo", 1)]]);
    seed("done", ASC, [[task("B", "done", 1)]]);
    client.setQueryData(boardKeys.firstPages(WS), true);
    client.setQueryData(boardKeys.columnSorted("other-ws", "todo", ASC), page([]));
    expect(client.getQueriesData({ queryKey: boardKeys.columns(WS) }).map(([k]) => decodeColumnKey(k).column)).toEqual(["todo", "done"]);
    expect(client.getQueriesData({ queryKey: boardKeys.column(WS, "todo") })).toHaveLength(1);
    expect(client.getQueriesData({ queryKey: boardKeys.all(WS) })).toHaveLength(3);
  });

  it("refuses to decode a key that is not a column's", () => {
    expect(() => decodeColumnKey(boardKeys.firstPages(WS))).toThrow(/not a board column key/);
  });
});

describe("placeTask", () => {
  it("ascending, other column: out of the old column, into the new one by position, totals follow", () => {
    seed("backlog", ASC, [[task("X", "backlog", 5)]]);
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2), task("C", "todo", 3)]]);
    placeTask(client, WS, task("X", "todo", 2.5));
    expect(ids("todo", ASC)).toEqual(["A", "B", "X", "C"]);
    expect(total("todo", ASC)).toBe(4);
    expect(ids("backlog", ASC)).toEqual([]);
    expect(total("backlog", ASC)).toBe(0);
  });

  it("descending, other column: higher positions first", () => {
    seed("backlog", ASC, [[task("X", "backlog", 5)]]);
    seed("todo", DESC, [[task("C", "todo", 3), task("B", "todo", 2), task("A", "todo", 1)]]);
    placeTask(client, WS, task("X", "todo", 2.5));
    expect(ids("todo", DESC)).toEqual(["C", "X", "B", "A"]);
  });

  it("same column, ascending and descending caches of it both reorder", () => {
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2), task("C", "todo", 3)]]);
    seed("todo", DESC, [[task("C", "todo", 3), task("B", "todo", 2), task("A", "todo", 1)]]);
    placeTask(client, WS, task("A", "todo", 2.5));
    expect(ids("todo", ASC)).toEqual(["B", "A", "C"]);
    expect(ids("todo", DESC)).toEqual(["C", "A", "B"]);
    expect(total("todo", ASC)).toBe(3);
    expect(total("todo", DESC)).toBe(3);
  });

  it("a new card sorting past the loaded cards of a column with later pages is left for those pages; only the total grows", () => {
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2)]], { hasMore: true, total: 10 });
    placeTask(client, WS, task("N", "todo", 99));
    expect(ids("todo", ASC)).toEqual(["A", "B"]);
    expect(total("todo", ASC)).toBe(11);
  });

  it("a card already on screen stays on screen when it moves past the loaded pages", () => {
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2)]], { hasMore: true, total: 10 });
    placeTask(client, WS, task("A", "todo", 99));
    expect(ids("todo", ASC)).toEqual(["B", "A"]);
    expect(total("todo", ASC)).toBe(10);
  });

  it("goes into the right page when several are loaded", () => {
    seed("todo", ASC, [
      [task("A", "todo", 1), task("B", "todo", 2)],
      [task("C", "todo", 3), task("D", "todo", 4)],
    ]);
    placeTask(client, WS, task("N", "todo", 3.5));
    const data = client.getQueryData<ColumnData>(boardKeys.columnSorted(WS, "todo", ASC))!;
    expect(data.pages.map((p) => p.items.map((t) => t.id))).toEqual([
      ["A", "B"],
      ["C", "N", "D"],
    ]);
    expect(data.pages.map((p) => p.total)).toEqual([5, 5]);
  });

  it("an empty column takes the card", () => {
    for (const sort of [ASC, DESC]) {
      client = new QueryClient();
      seed("done", sort, [[]]);
      placeTask(client, WS, task("N", "done", 0));
      expect(ids("done", sort)).toEqual(["N"]);
      expect(total("done", sort)).toBe(1);
    }
  });

  it("`at` puts the card at a display index of the cache it was dropped into, whatever its position says", () => {
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2)]]);
    placeTask(client, WS, task("N", "todo", 0), { at: { key: boardKeys.columnSorted(WS, "todo", ASC), index: 1 } });
    expect(ids("todo", ASC)).toEqual(["A", "N", "B"]);
  });

  it("other sorts: replaced in place when loaded, else counted, and returned as stale for a refetch", () => {
    seed("todo", BY_TITLE, [[task("A", "todo", 1), task("B", "todo", 2)]]);
    const stale = placeTask(client, WS, { ...task("A", "todo", 1), title: "Z renamed" });
    expect(flatItems(client.getQueryData(boardKeys.columnSorted(WS, "todo", BY_TITLE))).map((t) => t.title)).toEqual(["Z renamed", "B"]);
    expect(stale.map(decodeColumnKey)).toEqual([decodeColumnKey(boardKeys.columnSorted(WS, "todo", BY_TITLE))]);
    placeTask(client, WS, task("N", "todo", 5));
    expect(ids("todo", BY_TITLE)).toEqual(["A", "B"]);
    expect(total("todo", BY_TITLE)).toBe(3);
  });
});

describe("the other helpers", () => {
  it("findTask, patchTask and removeTask act wherever the task is cached", () => {
    seed("todo", ASC, [[task("A", "todo", 1), task("B", "todo", 2)]]);
    seed("todo", DESC, [[task("B", "todo", 2), task("A", "todo", 1)]]);
    expect(findTask(client, WS, "B")?.position).toBe(2);
    expect(findTask(client, WS, "nope")).toBeUndefined();
    patchTask(client, WS, "A", (old) => ({ ...old, title: "A2" }));
    expect(flatItems(client.getQueryData(boardKeys.columnSorted(WS, "todo", DESC))).map((t) => t.title)).toEqual(["B", "A2"]);
    removeTask(client, WS, "A");
    expect(ids("todo", ASC)).toEqual(["B"]);
    expect(ids("todo", DESC)).toEqual(["B"]);
    expect(total("todo", ASC)).toBe(1);
  });

  it("a snapshot restores every column as it was (the rollback of a refused move)", () => {
    seed("backlog", ASC, [[task("X", "backlog", 1)]]);
    seed("todo", ASC, [[task("A", "todo", 1)]]);
    const snapshot = snapshotColumns(client, WS);
    placeTask(client, WS, task("X", "todo", 2));
    expect(ids("todo", ASC)).toEqual(["A", "X"]);
    restoreColumns(client, snapshot);
    expect(ids("todo", ASC)).toEqual(["A"]);
    expect(ids("backlog", ASC)).toEqual(["X"]);
    expect(total("todo", ASC)).toBe(1);
  });

  it("positionBetween: the midpoint, or one past a single neighbour", () => {
    expect(positionBetween(task("A", "todo", 1), task("B", "todo", 2))).toBe(1.5);
    expect(positionBetween(task("A", "todo", 1), undefined)).toBe(2);
    expect(positionBetween(undefined, task("B", "todo", 2))).toBe(1);
    expect(positionBetween(undefined, undefined)).toBe(0);
  });
});

function seed(column: ColumnKey, sort: ColumnSort, pages: Card[][], options: { hasMore?: boolean; total?: number } = {}) {
  const total = options.total ?? pages.reduce((n, items) => n + items.length, 0);
  client.setQueryData<ColumnData>(boardKeys.columnSorted(WS, column, sort), {
    pages: pages.map((items, i) => ({ items, total, has_more: i < pages.length - 1 || Boolean(options.hasMore) })),
    pageParams: pages.map((_, i) => i * 2),
  });
}

function page(items: Card[]): ColumnData {
  return { pages: [{ items, total: items.length, has_more: false }], pageParams: [0] };
}

function ids(column: ColumnKey, sort: ColumnSort): string[] {
  return flatItems(client.getQueryData<ColumnData>(boardKeys.columnSorted(WS, column, sort))).map((t) => t.id);
}

function total(column: ColumnKey, sort: ColumnSort): number | undefined {
  return client.getQueryData<ColumnData>(boardKeys.columnSorted(WS, column, sort))?.pages[0]?.total;
}

/** A card, as the board's reads send it (lib/tasks/card-schemas.ts). */
function task(id: string, status: ColumnKey, position: number): Card {
  return {
    id,
    number: 1,
    title: id,
    status,
    position,
    priority: "p2",
    tags: [],
    project_id: null,
    project_name: null,
    phase_name: null,
    blocked: false,
    open_question_count: 0,
    open_blocker_count: 0,
    pr_url: null,
    pr_state: null,
    checks: null,
    has_merge_conflict: false,
    latest_run_status: null,
    latest_run_error: null,
    assignees: [],
    due_at: null,
  };
}
