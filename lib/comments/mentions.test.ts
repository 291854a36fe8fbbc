import { describe, expect, it } from "vitest";
import { mentions, mentionsAgent, withoutCode } from "@/lib/comments/mentions";

// The mention rule of docs/api.md ("Comments"): where an `@name` counts, case-insensitively, and
// how an agent profile's name with spaces is written.

describe("mentions", () => {
  it.each([
    ["@ada look", true],
    ["thanks, @Ada.", true],
    ["(@ada)", true],
    ["line\n@ADA", true],
    ["mail@ada", false],
    ["@adam", false],
    ["@ada-lovelace", false],
    ["ada", false],
    ["x.@ada", false],
  ])("%j names ada: %s", (body, expected) => {
    expect(mentions(body, "ada")).toBe(expected);
  });

  it("takes names with regular-expression characters literally", () => {
    expect(mentions("@a.b hi", "a.b")).toBe(true);
    expect(mentions("@axb hi", "a.b")).toBe(false);
  });

  it("names an agent profile as it is or with dashes for its spaces", () => {
    expect(mentionsAgent("@Code Reviewer please", "Code Reviewer")).toBe(true);
    expect(mentionsAgent("@code-reviewer please", "Code Reviewer")).toBe(true);
    expect(mentionsAgent("@code reviewers", "Code Reviewer")).toBe(false);
    expect(mentionsAgent("@code", "Code Reviewer")).toBe(false);
  });
});

describe("withoutCode", () => {
  const names = (body: string) => mentions(withoutCode(body), "ada");
  it.each([
    ["see `@ada` here", false],
    ["see ``a ` @ada`` here", false],
    ["```\n@ada\n```\n", false],
    ["~~~sh\necho @ada\n~~~", false],
    ["```\n@ada never closed", false],
    ["text\n\n    @ada indented\n", false],
    ["`code` then @ada", true],
    ["```\nx\n```\nafter @ada", true],
    ["a lone ` and @ada", true],
  ])("%j names ada outside code: %s", (body, expected) => {
    expect(names(body)).toBe(expected);
  });

  it("keeps the prose where it was (code becomes spaces, lines stay)", () => {
    expect(withoutCode("a `b` c\n```\nd\n```")).toBe("a     c\n   \n \n   ");
  });
});
