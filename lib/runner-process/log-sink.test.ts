import { describe, expect, it } from "vitest";
import { LogSink, MAX_LINE_CHARS } from "@/lib/runner-process/log-sink";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";

// The line splitter and batcher between an agent (pipes or ACP updates) and the database.

function collect(bufferChars?: number) {
  const batches: NewLogEntry[][] = [];
  const sink = new LogSink(async (batch) => {
    batches.push([...batch]);
  }, bufferChars);
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
    const { sink, batches, entries } = collect();
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

  it("hands what came while its batch waited to that batch as it is sent, in order; the rest goes next", async () => {
    const batches: string[][] = [];
    let send = () => {};
    const sent = new Promise<void>((resolve) => (send = resolve));
    let waiting = true;
    const sink = new LogSink(async (batch, { more }) => {
      if (waiting) {
        waiting = false;
        await sent;
      }
      let room = 3;
      const extra = more(() => room-- > 0);
      batches.push([...batch, ...extra].map((entry) => String(entry.update.text)));
    });
    for (let n = 0; n < 5; n++) sink.write("stdout", Buffer.from(`${n}\n`));
    await new Promise((resolve) => setTimeout(resolve, 10)); // the first batch is on its way
    for (let n = 5; n < 10; n++) sink.write("stdout", Buffer.from(`${n}\n`));
    send();
    await sink.close();
    expect(batches).toEqual([
      ["0", "1", "2", "3", "4", "5", "6", "7"],
      ["8", "9"],
    ]);
  });

  it("drops entries past its bound while the server is unreachable, and says how many where they are missing", async () => {
    const batches: NewLogEntry[][] = [];
    let reachable = false;
    let back = () => {};
    const serverBack = new Promise<void>((resolve) => (back = resolve));
    // The first delivery finds the server away: it says so and waits, as the HTTP port retries.
    const sink = new LogSink(async (batch, { stalled }) => {
      if (!reachable) {
        stalled(true);
        await serverBack;
        stalled(false);
      }
      batches.push([...batch]);
    }, 1000);
    const line = (n: number) => Buffer.from(`line ${n} ${"q".repeat(60)}\n`); // about 100 characters an entry
    let n = 0;
    sink.write("stdout", line(n++));
    await new Promise((resolve) => setTimeout(resolve, 30)); // the first batch is under way, and stalled
    const answers: boolean[] = [];
    while (n < 60) answers.push(sink.write("stdout", line(n++)));
    // Never paused while stalled: the agent goes on, and what does not fit is dropped.
    expect(answers.every(Boolean)).toBe(true);
    const dropped = sink.droppedSoFar;
    expect(dropped).toBeGreaterThan(40);
    reachable = true;
    back();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the delivery got through
    for (let i = 0; i < 5; i++) sink.write("stdout", line(n++));
    await sink.close();
    const entries = batches.flat();
    const texts = entries.map((e) => (e.type === "output" ? Number(String(e.update.text).split(" ")[1]) : e.update));
    const gap = entries.findIndex((e) => e.type === "error");
    expect(entries[gap].update).toEqual({ message: `${dropped} log entries were dropped while the server was unreachable`, dropped });
    expect(entries.filter((e) => e.type === "error")).toHaveLength(1);
    // Lines before the gap run on without a hole, the gap is exactly the dropped lines, and every line after it is kept.
    const before = texts.slice(0, gap) as number[];
    const after = texts.slice(gap + 1) as number[];
    expect(before).toEqual(before.map((_, i) => i));
    expect(after[0]).toBe(before.length + dropped);
    expect(after).toEqual(after.map((_, i) => after[0] + i));
    expect(after.at(-1)).toBe(n - 1);
  });

  it("pauses the writer rather than dropping while deliveries go through", async () => {
    const { sink, entries } = collect(100_000);
    let paused = 0;
    for (let i = 0; i < 200; i++) if (!sink.write("stdout", Buffer.from(`${"p".repeat(5000)}\n`))) paused++;
    expect(paused).toBeGreaterThan(0);
    await sink.close();
    expect(entries()).toHaveLength(200);
    expect(sink.droppedSoFar).toBe(0);
  });
});
