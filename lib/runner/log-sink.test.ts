import { describe, expect, it } from "vitest";
import { LogSink, MAX_LINE_CHARS } from "@/lib/runner/log-sink";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";

// The line splitter and batcher between an agent (pipes or ACP updates) and the database.

function collect(intervalMs = 20) {
  const batches: NewLogEntry[][] = [];
  const sink = new LogSink(intervalMs, async (batch) => {
    batches.push([...batch]);
  });
  const entries = () => batches.flat();
  return { sink, batches, entries, lines: () => entries().map((e) => e.update.text) };
}

describe("LogSink", () => {
  it("splits both streams into output entries, joins lines split across chunks and keeps the unterminated last one", async () => {
    const { sink, entries, lines } = collect();
    sink.write("stdout", Buffer.from("one\ntw"));
    sink.write("stderr", Buffer.from("err\r\n"));
    sink.write("stdout", Buffer.from("o\nthree"));
    await sink.close();
    expect(lines()).toEqual(["one", "err", "two", "three"]);
    expect(entries().map((e) => [e.type, e.update.stream])).toEqual([
      ["output", "stdout"],
      ["output", "stderr"],
      ["output", "stdout"],
      ["output", "stdout"],
    ]);
    expect(sink.lastStderrLine).toBe("err");
  });

  it("keeps structured entries in order with the output around them", async () => {
    const { sink, entries } = collect();
    sink.push("prompt", { text: "do it" });
    sink.write("stderr", Buffer.from("starting\n"));
    sink.push("plan", { sessionUpdate: "plan", entries: [] });
    await sink.close();
    expect(entries().map((e) => e.type)).toEqual(["prompt", "output", "plan"]);
  });

  it("keeps a multi-byte character that arrives in two chunks intact", async () => {
    const { sink, lines } = collect();
    const bytes = Buffer.from("é\n");
    sink.write("stdout", bytes.subarray(0, 1));
    sink.write("stdout", bytes.subarray(1));
    await sink.close();
    expect(lines()).toEqual(["é"]);
  });

  it("cuts an endless line into pieces instead of holding it", async () => {
    const { sink, lines } = collect();
    sink.write("stdout", Buffer.from("x".repeat(MAX_LINE_CHARS * 2 + 10)));
    await sink.close();
    expect(lines().map((l) => (l as string).length)).toEqual([MAX_LINE_CHARS, MAX_LINE_CHARS, 10]);
  });

  it("batches however fast lines arrive, and asks the writer to pause past its buffer limit", async () => {
    const { sink, batches, entries } = collect(50);
    const block = Buffer.from(`${"z".repeat(99)}\n`.repeat(1000)); // 100 kB, 1000 lines
    let paused = false;
    let written = 0;
    for (let i = 0; i < 30 && !paused; i++) {
      paused = !sink.write("stdout", block);
      written += 1000;
    }
    expect(paused).toBe(true);
    expect(batches).toHaveLength(0);
    await sink.drained();
    await sink.close();
    expect(entries()).toHaveLength(written);
    expect(batches.length).toBeLessThanOrEqual(2);
    expect(sink.tail).toHaveLength(50);
  });
});
