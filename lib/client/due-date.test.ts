import { describe, expect, it } from "vitest";
import { dateInputValue, dueAtFromDate } from "@/lib/client/due-date";

describe("due dates", () => {
  it("make a picked day the last moment of that day, in the local time zone, and read it back as that day", () => {
    const dueAt = dueAtFromDate("2026-11-03")!;
    const due = new Date(dueAt);
    expect([due.getFullYear(), due.getMonth(), due.getDate(), due.getHours(), due.getMinutes()]).toEqual([2026, 10, 3, 23, 59]);
    expect(dateInputValue(dueAt)).toBe("2026-11-03");
  });

  it("treat an empty input as no due date, and no due date as an empty input", () => {
    expect(dueAtFromDate("")).toBeNull();
    expect(dateInputValue(null)).toBe("");
  });
});
