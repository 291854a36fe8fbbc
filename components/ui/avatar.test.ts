import { describe, expect, it } from "vitest";
import { colourIndex, initials } from "@/components/ui/avatar";

describe("initials", () => {
  it("takes the first letters of two words, or the first two of one", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("claude-code")).toBe("CC");
    expect(initials("bob")).toBe("BO");
    expect(initials("j.smith")).toBe("JS");
    expect(initials("  x  ")).toBe("X");
    expect(initials("")).toBe("?");
  });
});

describe("colourIndex", () => {
  it("gives an id the same colour every time, and spreads ids over the colours", () => {
    const id = "0195f000-0000-7000-8000-000000000001";
    expect(colourIndex(id)).toBe(colourIndex(id));
    const seen = new Set(Array.from({ length: 50 }, (_, i) => colourIndex(`0195f000-0000-7000-8000-${String(i).padStart(12, "0")}`)));
    expect(seen.size).toBeGreaterThan(5);
  });
});
