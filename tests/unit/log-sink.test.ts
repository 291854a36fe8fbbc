import { describe, expect, it } from "vitest";
import { LogSink, MAX_LINE_CHARS, type LogBatch } from "@/lib/runner/log-sink";

// The line splitter and batcher between an agent's pipes and the database.

function collect(intervalMs = 20) {
  const batches: LogBatch[] = [];
  const sink = new LogSink(intervalMs, async (batch) => {
    batches.push({ firstLine: batch.firstLine, lines: [...batch.lines] });
  });
  return { sink, batches, lines: () => batches.flatMap((b) => b.lines) };
}

describe("LogSink", () => {
  it("splits both streams into numbered lines, joins lines split across chunks and keeps the unterminated last one", async () => {
    const { sink, batches, lines } = collect();
    sink.write("stdout", Buffer.from("one\ntw"));
    sink.write("stderr", Buffer.from("err\r\n"));
    sink.write("stdout", Buffer.from("o\nthree"));
    await sink.close();
    expect(lines()).toEqual(["one", "err", "two", "three"]);
    expect(sink.lineCount).toBe(4);
    expect(sink.lastStderrLine).toBe("err");
    // Consecutive batches number their lines without gaps.
    let next = 0;
    for (const batch of batches) {
      expect(batch.firstLine).toBe(next);
      next += batch.lines.length;
    }
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
    expect(lines().map((l) => l.length)).toEqual([MAX_LINE_CHARS, MAX_LINE_CHARS, 10]);
  });

  it("batches however fast lines arrive, and asks the writer to pause past its buffer limit", async () => {
    const { sink, batches } = collect(50);
    const block = Buffer.from(`${"z".repeat(99)}\n`.repeat(1000)); // 100 kB, 1000 lines
    let paused = false;
    for (let i = 0; i < 30 && !paused; i++) paused = !sink.write("stdout", block);
    expect(paused).toBe(true);
    expect(batches).toHaveLength(0);
    await sink.drained();
    await sink.close();
    expect(sink.lineCount).toBe(batches.reduce((n, b) => n + b.lines.length, 0));
    expect(batches.length).toBeLessThanOrEqual(2);
    expect(sink.tail).toHaveLength(50);
  });
});
