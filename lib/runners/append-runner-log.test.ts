import { describe, expect, it } from "vitest";
import { inGroups } from "@/lib/runners/append-runner-log";

// How a runner's log request is cut into transactions on PGlite: between runs, never inside one.

const batch = (executionId: string, count: number) => ({
  executionId,
  firstSeq: 0,
  entries: Array.from({ length: count }, (_, i) => ({ type: "output", update: { text: `${executionId} ${i}` } })),
});
const shape = (groups: ReturnType<typeof inGroups>) => groups.map((group) => group.map((b) => `${b.executionId}:${b.entries.length}`));

describe("inGroups", () => {
  it("closes a group before the run that would take it past the bound, keeping the runs' order", () => {
    const groups = inGroups([batch("a", 150), batch("b", 150), batch("c", 10), batch("d", 40), batch("e", 1)], 200);
    expect(shape(groups)).toEqual([["a:150"], ["b:150", "c:10", "d:40"], ["e:1"]]);
  });

  it("never splits one run's batch, however big", () => {
    expect(shape(inGroups([batch("a", 10), batch("b", 900), batch("c", 10)], 200))).toEqual([["a:10"], ["b:900"], ["c:10"]]);
  });

  it("keeps a request within the bound whole", () => {
    expect(shape(inGroups([batch("a", 100), batch("b", 100)], 200))).toEqual([["a:100", "b:100"]]);
  });
});
