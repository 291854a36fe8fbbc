import { describe, expect, it } from "vitest";
import { preferences } from "@/lib/api/prefer";

// The Prefer header (RFC 7240 §2): what the server reads of it. Only wait=reactions and respond-async mean anything
// here (lib/api/prefer.ts, lib/api/after-reactions.ts); everything else must parse without an error and be passed over.

const wait = (header: string | null) => preferences(header).get("wait");

describe("preferences", () => {
  it("reads a preference, its value, and several of them", () => {
    expect([...preferences("wait=reactions")]).toEqual([["wait", "reactions"]]);
    expect([...preferences("respond-async, wait=reactions, return=minimal")]).toEqual([
      ["respond-async", ""],
      ["wait", "reactions"],
      ["return", "minimal"],
    ]);
  });

  it("takes names in any case, spaces around the equals sign, quoted values and parameters", () => {
    expect(wait("WAIT=reactions")).toBe("reactions");
    expect(wait("wait = reactions")).toBe("reactions");
    expect(wait('wait="reactions"')).toBe("reactions");
    expect(wait("wait=reactions; timeout=2")).toBe("reactions");
    expect(wait('foo="a, b; c", wait=reactions')).toBe("reactions");
    expect(preferences('foo="a \\"quoted\\" word"').get("foo")).toBe('a "quoted" word');
  });

  it("counts the first of a repeated preference (two Prefer headers arrive joined by a comma)", () => {
    expect(wait("wait=10, wait=reactions")).toBe("10");
    expect(wait("wait=reactions, wait=10")).toBe("reactions");
  });

  it("passes over what does not parse, and an absent or empty header is no preference", () => {
    expect(preferences(null).size).toBe(0);
    expect(preferences("").size).toBe(0);
    expect(preferences(" , ;; ,=x").size).toBe(0);
    expect(wait('wait="reactions')).toBeUndefined();
    expect(wait('wait="reactions"x')).toBeUndefined();
    expect(wait("wait=re actions")).toBeUndefined();
    expect(wait("w@it=reactions")).toBeUndefined();
    expect(wait("bad name=1, wait=reactions")).toBe("reactions");
  });
});
