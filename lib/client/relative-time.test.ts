import { describe, expect, it } from "vitest";
import { timeAgo } from "@/lib/client/relative-time";

describe("timeAgo", () => {
  const now = Date.parse("2026-11-25T12:00:00.000Z");
  const before = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("says how long ago, in the largest whole unit", () => {
    expect(timeAgo(before(2), now)).toBe("just now");
    expect(timeAgo(before(12), now)).toBe("12 s ago");
    expect(timeAgo(before(125), now)).toBe("2 min ago");
    expect(timeAgo(before(3 * 3600 + 59), now)).toBe("3 h ago");
    expect(timeAgo(before(86_400), now)).toBe("1 day ago");
    expect(timeAgo(before(5 * 86_400), now)).toBe("5 days ago");
  });

  it("takes a clock running behind the server's as just now", () => {
    expect(timeAgo(before(-30), now)).toBe("just now");
  });
});
