import { describe, expect, it } from "vitest";
import { withoutNul } from "@/lib/runs/without-nul";

const clean = <T>(value: T) => withoutNul(value, JSON.stringify(value));

describe("withoutNul", () => {
  it("replaces NUL in strings and keys at any depth, and leaves the rest as it was", () => {
    expect(clean({ text: "a\0b", list: ["\0", 1, null, true], nested: { "k\0": { deeper: "x\0\0" } } })).toEqual({
      text: "a\uFFFDb",
      list: ["\uFFFD", 1, null, true],
      nested: { "k\uFFFD": { deeper: "x\uFFFD\uFFFD" } },
    });
  });

  it("returns the very value when its JSON has no NUL, and leaves the six characters \\u0000 of a text alone", () => {
    const value = { text: "plain" };
    expect(clean(value)).toBe(value);
    expect(clean({ text: "printf '\\u0000'" })).toEqual({ text: "printf '\\u0000'" });
    const mixed = { text: "\\u0000 and \0" };
    expect(clean(mixed)).toEqual({ text: "\\u0000 and \uFFFD" });
  });
});
