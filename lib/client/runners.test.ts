import { describe, expect, it } from "vitest";
import { parseLabels, runnerCommand } from "@/lib/client/runners";

describe("the runner form's helpers", () => {
  it("reads comma-separated labels, dropping blanks", () => {
    expect(parseLabels("")).toEqual([]);
    expect(parseLabels(" gpu, docker ,, linux:arm64 ")).toEqual(["gpu", "docker", "linux:arm64"]);
  });

  it("writes the command that starts a runner for this board", () => {
    expect(runnerCommand("https://board.example.com/", "tbr_abc", 2)).toBe(
      "npm run runner -- --url https://board.example.com --token tbr_abc --capacity 2",
    );
    expect(runnerCommand("http://localhost:3000", "t", 1)).toBe("npm run runner -- --url http://localhost:3000 --token t --capacity 1");
  });
});
