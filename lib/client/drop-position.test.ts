import { describe, expect, it } from "vitest";
import { dropPosition, type DropInput } from "@/lib/client/drop-position";

// A column shown as A, B, C (display order); `sort` says whether that is ascending or descending position.
const ASC = { by: "position", dir: "asc" } as const;
const DESC = { by: "position", dir: "desc" } as const;

function drop(overrides: Partial<DropInput> & Pick<DropInput, "taskId" | "target">): ReturnType<typeof dropPosition> {
  return dropPosition({ from: "todo", sort: ASC, loadedIds: ["A", "B", "C"], hasMore: false, belowTarget: false, ...overrides });
}

describe("dropPosition, ascending sort", () => {
  it("same column, moving down: the card takes the place of the one it is over", () => {
    expect(drop({ taskId: "A", target: { type: "card", taskId: "C", column: "todo" } })).toEqual({
      type: "move",
      column: "todo",
      after_id: "C",
      before_id: null,
      index: 2,
    });
    expect(drop({ taskId: "A", target: { type: "card", taskId: "B", column: "todo" } })).toMatchObject({
      after_id: "B",
      before_id: "C",
      index: 1,
    });
  });

  it("same column, moving up", () => {
    expect(drop({ taskId: "C", target: { type: "card", taskId: "A", column: "todo" } })).toMatchObject({
      after_id: null,
      before_id: "A",
      index: 0,
    });
  });

  it("other column: above or below the card it is over, by which half the dragged card's centre is in", () => {
    const target = { type: "card", taskId: "B", column: "todo" } as const;
    expect(drop({ taskId: "X", from: "backlog", target, belowTarget: false })).toMatchObject({ after_id: "A", before_id: "B", index: 1 });
    expect(drop({ taskId: "X", from: "backlog", target, belowTarget: true })).toMatchObject({ after_id: "B", before_id: "C", index: 2 });
  });

  it("other column's empty space: the end when all is loaded, the top when later pages are not", () => {
    const target = { type: "column", column: "todo" } as const;
    expect(drop({ taskId: "X", from: "backlog", target })).toMatchObject({ after_id: "C", before_id: null, index: 3 });
    expect(drop({ taskId: "X", from: "backlog", target, hasMore: true })).toMatchObject({ after_id: null, before_id: "A", index: 0 });
  });
});

describe("dropPosition, descending sort (shown above means a higher position)", () => {
  it("same column, moving down", () => {
    expect(drop({ sort: DESC, taskId: "A", target: { type: "card", taskId: "C", column: "todo" } })).toEqual({
      type: "move",
      column: "todo",
      after_id: null,
      before_id: "C",
      index: 2,
    });
  });

  it("same column, moving up", () => {
    expect(drop({ sort: DESC, taskId: "C", target: { type: "card", taskId: "B", column: "todo" } })).toMatchObject({
      after_id: "B",
      before_id: "A",
      index: 1,
    });
  });

  it("other column, below a card", () => {
    const target = { type: "card", taskId: "A", column: "todo" } as const;
    expect(drop({ sort: DESC, taskId: "X", from: "backlog", target, belowTarget: true })).toMatchObject({
      after_id: "B",
      before_id: "A",
      index: 1,
    });
  });

  it("other column's empty space with later pages unloaded: the top, above the highest loaded position", () => {
    expect(drop({ sort: DESC, taskId: "X", from: "backlog", target: { type: "column", column: "todo" }, hasMore: true })).toMatchObject({
      after_id: "A",
      before_id: null,
      index: 0,
    });
  });
});

describe("dropPosition, edge cases", () => {
  it("an empty column takes the card with no neighbours (the server puts it at the end)", () => {
    for (const sort of [ASC, DESC]) {
      expect(drop({ sort, taskId: "X", from: "backlog", loadedIds: [], target: { type: "column", column: "todo" } })).toEqual({
        type: "move",
        column: "todo",
        after_id: null,
        before_id: null,
        index: 0,
      });
    }
  });

  it("dropping on itself or on its own column's empty space changes nothing", () => {
    expect(drop({ taskId: "B", target: { type: "card", taskId: "B", column: "todo" } })).toEqual({ type: "none" });
    expect(drop({ taskId: "B", target: { type: "column", column: "todo" } })).toEqual({ type: "none" });
  });

  it("a card over one the column has not loaded is no drop", () => {
    expect(drop({ taskId: "X", from: "backlog", target: { type: "card", taskId: "Z", column: "todo" } })).toEqual({ type: "none" });
  });

  it("a column sorted by something else: no reordering within it; to it, the server places the card", () => {
    const sort = { by: "title", dir: "asc" } as const;
    expect(drop({ sort, taskId: "A", target: { type: "card", taskId: "C", column: "todo" } })).toEqual({
      type: "not-in-board-order",
      column: "todo",
    });
    expect(drop({ sort, taskId: "X", from: "backlog", target: { type: "card", taskId: "C", column: "todo" } })).toEqual({
      type: "move",
      column: "todo",
      after_id: null,
      before_id: null,
      index: null,
    });
  });
});
