import { describe, expect, it } from "vitest";
import { inGroups } from "@/lib/db/write-behind-requests";

// How a background write (a runner's log request, one item per run weighing its entries) is cut
// into transactions on PGlite: between items, never inside one.

const batch = (executionId: string, count: number) => ({
  executionId,
  firstSeq: 0,
  entries: Array.from({ length: count }, (_, i) => ({ type: "output", update: { text: `${executionId} ${i}` } })),
});
const entries = (b: ReturnType<typeof batch>) => b.entries.length;
const shape = (groups: ReturnType<typeof batch>[][]) => groups.map((group) => group.map((b) => `${b.executionId}:${b.entries.length}`));

describe("inGroups", () => {
  it("closes a group before the run that would take it past the bound, keeping the runs' order", () => {
    const groups = inGroups([batch("a", 150), batch("b", 150), batch("c", 10), batch("d", 40), batch("e", 1)], entries, 200);
    expect(shape(groups)).toEqual([["a:150"], ["b:150", "c:10", "d:40"], ["e:1"]]);
  });

  it("never splits one run's batch, however big", () => {
    expect(shape(inGroups([batch("a", 10), batch("b", 900), batch("c", 10)], entries, 200))).toEqual([["a:10"], ["b:900"], ["c:10"]]);
  });

  it("keeps a request within the bound whole", () => {
    expect(shape(inGroups([batch("a", 100), batch("b", 100)], entries, 200))).toEqual([["a:100", "b:100"]]);
  });
});
