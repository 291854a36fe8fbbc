import { describe, expect, it } from "vitest";
import { fixChecksInstructions } from "@/lib/github/sync/start-automatic-run";

describe("fixChecksInstructions", () => {
  const task = { title: "Login page", description: "Users sign in with a password.", prUrl: "https://github.com/acme/app/pull/7" };

  it("names each failing check with its conclusion, title and summary, then the task", () => {
    const text = fixChecksInstructions(task, "abc123", [
      { name: "unit tests", conclusion: "failure", title: "2 failed", summary: "expected 1, got 2\nat login.test.ts:4" },
      { name: "build", conclusion: "timed_out", title: null, summary: null },
    ]);
    expect(text).toBe(
      [
        "The checks of this task's pull request (https://github.com/acme/app/pull/7) failed on commit abc123:",
        "",
        "- unit tests (failure): 2 failed",
        "  expected 1, got 2",
        "  at login.test.ts:4",
        "- build (timed_out)",
        "",
        "Find out why and fix the code on the task's branch so that these checks pass. Keep the change to what the failures need.",
        "",
        "Task: Login page",
        "",
        "Users sign in with a password.",
      ].join("\n"),
    );
  });

  it("keeps long summaries and long lists bounded", () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      name: `check ${i}`,
      conclusion: "failure",
      title: null,
      summary: "x".repeat(5000),
    }));
    const text = fixChecksInstructions({ ...task, description: "" }, "abc", many);
    expect(text).toContain("- check 19 (failure)");
    expect(text).not.toContain("- check 20 (failure)");
    expect(text).toContain("- … and 5 more");
    expect(text.length).toBeLessThan(20 * 2100 + 1000);
    expect(text.endsWith("Task: Login page")).toBe(true);
  });
});
