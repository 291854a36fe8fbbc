import { describe, expect, it } from "vitest";
import { capReport, REPORT_MAX_BYTES } from "@/lib/runner-process/cap-report";

// A report is cut below finish's 256 KiB, at a character's boundary, and says it was cut.

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("capReport", () => {
  it("leaves a report within the limit as it is", () => {
    const text = "é".repeat(100);
    expect(capReport(text, "start")).toBe(text);
    expect(capReport(text, "end")).toBe(text);
  });

  it("keeps the tail's last lines of 50 lines of 20,000 characters, within the limit, saying so", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${"x".repeat(20_000)}`);
    const report = capReport(lines.join("\n"), "end");
    expect(bytes(report)).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    expect(bytes(report)).toBeGreaterThan(REPORT_MAX_BYTES - 100);
    expect(report.startsWith("[report cut to its last 64 KiB]\n")).toBe(true);
    expect(report.endsWith(lines[49])).toBe(true);
  });

  it("keeps an agent's report's beginning, saying so", () => {
    const report = capReport(`TITLE\n${"y".repeat(300_000)}`, "start");
    expect(report.startsWith("TITLE\n")).toBe(true);
    expect(report.endsWith("\n[report cut to its first 64 KiB]")).toBe(true);
    expect(bytes(report)).toBeLessThanOrEqual(REPORT_MAX_BYTES);
  });

  it("cuts on a UTF-8 boundary: no character is split into replacement marks", () => {
    // Four-byte characters (emoji) against every offset of the cut.
    for (const pad of [0, 1, 2, 3]) {
      const text = "a".repeat(pad) + "😀".repeat(1000);
      for (const keep of ["start", "end"] as const) {
        const report = capReport(text, keep, 1000);
        expect(report).not.toContain("\uFFFD");
        expect(bytes(report)).toBeLessThanOrEqual(1000);
        expect(report.replace(/\[report cut to its (first|last) 0 KiB\]|\n/g, "")).toMatch(/^a*(😀)+$/u);
      }
    }
  });
});
