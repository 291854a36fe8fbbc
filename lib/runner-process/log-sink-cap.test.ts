import { afterEach, describe, expect, it, vi } from "vitest";
import { LogSink } from "@/lib/runner-process/log-sink";
import { agentLogMaxBytes } from "@/lib/platform/runner-config";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";

// The run's log cap (AGENT_LOG_MAX_BYTES, issue #35): what an agent prints past it is dropped and
// counted, the log says so once where it starts and once at the end, and the run goes on.

function capped(maxBytes: number) {
  const batches: NewLogEntry[][] = [];
  const sink = new LogSink(
    async (batch) => {
      batches.push([...batch]);
    },
    undefined,
    maxBytes,
  );
  return { sink, entries: () => batches.flat() };
}

const truncations = (entries: NewLogEntry[]) => entries.filter((e) => e.update.truncated === true);
const outputBytes = (entries: NewLogEntry[]) =>
  entries.filter((e) => e.type === "output").reduce((sum, e) => sum + Buffer.byteLength(String(e.update.text)) + 32, 0);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("LogSink's cap", () => {
  it("keeps output up to the cap, says so once where it starts, counts the rest at the end, and never pauses for it", async () => {
    const { sink, entries } = capped(10_000);
    const line = (n: number) => `line ${String(n).padStart(4, "0")} ${"é".repeat(40)}`; // 10 + 80 bytes
    const answers: boolean[] = [];
    for (let n = 0; n < 1000; n++) answers.push(sink.write("stdout", Buffer.from(`${line(n)}\n`)));
    await sink.close();
    expect(answers.every(Boolean)).toBe(true);
    const all = entries();
    expect(outputBytes(all)).toBeLessThanOrEqual(10_000);
    const kept = all.filter((e) => e.type === "output").length;
    expect(kept).toBe(Math.floor(10_000 / (Buffer.byteLength(line(0)) + 32)));
    const [notice, count] = truncations(all);
    expect(truncations(all)).toHaveLength(2);
    expect(all.indexOf(notice)).toBe(kept); // right where the output stops
    expect(notice.update).toMatchObject({ max_bytes: 10_000 });
    expect(notice.update.message).toMatch(/^truncated: the log reached AGENT_LOG_MAX_BYTES \(10000 bytes\)/);
    const dropped = (1000 - kept) * (Buffer.byteLength(line(0)) + 32);
    expect(count.update).toEqual({
      message: `truncated: ${dropped} bytes dropped (${1000 - kept} log entries past AGENT_LOG_MAX_BYTES)`,
      truncated: true,
      dropped_bytes: dropped,
      dropped_entries: 1000 - kept,
    });
    expect(all.at(-1)).toBe(count);
    // The report's tail is the agent's last lines, dropped or not.
    expect(sink.tail.at(-1)).toBe(line(999));
  });

  it("keeps the runner's notes past the cap within a room of their own, and an agent's updates not at all", async () => {
    const { sink, entries } = capped(1000);
    sink.write("stdout", Buffer.from(`${"a".repeat(2000)}\n`));
    sink.push("plan", { sessionUpdate: "plan", entries: [] }, 100);
    sink.push("git", { step: "commit", message: "committed" });
    // A flood of entries named like notes stops too: one more megabyte at most.
    for (let i = 0; i < 100; i++) sink.push("error", { message: "x".repeat(20_000) }, 20_064);
    await sink.close();
    const all = entries();
    expect(all.map((e) => e.type)).not.toContain("output");
    expect(all.map((e) => e.type)).not.toContain("plan");
    expect(all.find((e) => e.type === "git")?.update).toEqual({ step: "commit", message: "committed" });
    const floods = all.filter((e) => e.type === "error" && !e.update.truncated);
    expect(floods.length).toBeGreaterThan(40);
    expect(floods.length).toBeLessThan(60);
    expect(truncations(all)).toHaveLength(2);
  });

  it("says nothing when the log stays under the cap", async () => {
    const { sink, entries } = capped(10_000);
    for (let n = 0; n < 10; n++) sink.write("stdout", Buffer.from(`line ${n}\n`));
    await sink.close();
    expect(entries()).toHaveLength(10);
    expect(truncations(entries())).toEqual([]);
  });

  it("reads AGENT_LOG_MAX_BYTES, 50 MB when unset or not a positive whole number", () => {
    vi.stubEnv("AGENT_LOG_MAX_BYTES", "200000");
    expect(agentLogMaxBytes()).toBe(200_000);
    vi.stubEnv("AGENT_LOG_MAX_BYTES", "-5");
    expect(agentLogMaxBytes()).toBe(50 * 1024 * 1024);
    vi.stubEnv("AGENT_LOG_MAX_BYTES", "");
    expect(agentLogMaxBytes()).toBe(50 * 1024 * 1024);
  });
});
