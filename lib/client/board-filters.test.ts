import { describe, expect, it } from "vitest";
import { filterQuery, readFilters, readSorts } from "@/lib/client/board-filters";
import { DEFAULT_SORT } from "@/lib/client/types";

// The board's address: what a link or a reload gives back, and what keys the column caches.

describe("board filters in the address", () => {
  it("reads the filters, dropping a priority that is none", () => {
    const filters = readFilters(new URLSearchParams("assignee=me&tag=ui&priority=p9&project_id=p&q=login&task=t"));
    expect(filters).toEqual({ assignee: "me", tag: "ui", priority: null, project_id: "p", q: "login" });
  });

  it("makes the same query string for the same filters, with `me` as the caller's id", () => {
    const filters = readFilters(new URLSearchParams("q=%20x%20&assignee=me&tag="));
    expect(filterQuery(filters, "u1")).toBe("assignee=u1&q=x");
    expect(filterQuery(readFilters(new URLSearchParams("")), "u1")).toBe("");
  });

  it("reads sorts per column, ignoring what is not a column, a field or a direction", () => {
    const sorts = readSorts("todo:due_at:desc,done:title:asc,nope:title:asc,backlog:colour:asc,in_review:title:up");
    expect(sorts.todo).toEqual({ by: "due_at", dir: "desc" });
    expect(sorts.done).toEqual({ by: "title", dir: "asc" });
    expect([sorts.backlog, sorts.in_progress, sorts.in_review]).toEqual([DEFAULT_SORT, DEFAULT_SORT, DEFAULT_SORT]);
  });
});
