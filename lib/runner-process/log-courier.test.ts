import { describe, expect, it } from "vitest";
import { LOG_REQUEST_CHARS, LogCourier, type WireBatch } from "@/lib/runner-process/log-courier";
import { ProtocolError } from "@/lib/runner-process/protocol-client";
import { MAX_LOG_BATCH } from "@/lib/runner-protocol";

// The runner's group commit of log batches (POST /api/runner/log), against a stand-in for the call.

function server(refuse: Record<string, { status: number; detail: string }> = {}) {
  const requests: WireBatch[][] = [];
  let release: () => void = () => {};
  let gate = Promise.resolve();
  const courier = new LogCourier(async (batches) => {
    requests.push(batches);
    await gate;
    return {
      results: batches.map((batch) => ({
        execution_id: batch.execution_id,
        next_seq: refuse[batch.execution_id] ? null : batch.first_seq + batch.entries.length,
        error: refuse[batch.execution_id] ?? null,
      })),
    };
  });
  return {
    courier,
    requests,
    hold: () => (gate = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
  };
}

const batch = (id: string, first: number, n = 1): WireBatch => ({
  execution_id: id,
  first_seq: first,
  entries: Array.from({ length: n }, (_, i) => ({ type: "output", update: { text: `${id}-${first + i}` } })),
});

describe("LogCourier", () => {
  it("sends the first batch at once and the batches that came meanwhile together, one per run, in order", async () => {
    const { courier, requests, hold, release } = server();
    hold();
    const first = courier.deliver(batch("a", 0), 10);
    const waiting = [courier.deliver(batch("b", 0), 10), courier.deliver(batch("a", 1), 10), courier.deliver(batch("c", 0), 10)];
    await Promise.resolve();
    expect(requests).toEqual([[batch("a", 0)]]);
    release();
    await Promise.all([first, ...waiting]);
    // a's second batch waits for a request of its own only because a already had one in flight…
    expect(requests.map((request) => request.map((b) => `${b.execution_id}${b.first_seq}`))).toEqual([["a0"], ["b0", "a1", "c0"]]);
  });

  it("keeps a run's batches in order when the request is full: nothing of that run jumps ahead", async () => {
    const { courier, requests, hold, release } = server();
    hold();
    const first = courier.deliver(batch("x", 0), 10);
    const big = LOG_REQUEST_CHARS - 100;
    const rest = [
      courier.deliver(batch("a", 0), big),
      courier.deliver(batch("b", 0), 200), // does not fit beside a's
      courier.deliver(batch("b", 1), 10), // must not go before b's first
      courier.deliver(batch("c", 0), 10),
    ];
    release();
    await Promise.all([first, ...rest]);
    expect(requests.map((request) => request.map((b) => `${b.execution_id}${b.first_seq}`))).toEqual([
      ["x0"],
      ["a0", "c0"],
      ["b0"],
      ["b1"],
    ]);
  });

  it("adds a run's newer entries to its batch when the request is made, within the room left", async () => {
    const { courier, requests, hold, release } = server();
    hold();
    const first = courier.deliver(batch("x", 0), 10);
    const rooms: { chars: number; entries: number }[] = [];
    const newer = { type: "output", update: { text: "a-1" } };
    const topped = courier.deliver(batch("a", 0), 10, {
      topUp: (room) => {
        rooms.push(room);
        return { entries: [newer], chars: 30 };
      },
    });
    const plain = courier.deliver(batch("b", 0), 20);
    await Promise.resolve();
    release();
    await Promise.all([first, topped, plain]);
    expect(requests[1]).toEqual([{ ...batch("a", 0), entries: [...batch("a", 0).entries, newer] }, batch("b", 0)]);
    // Asked once, when the request was made, with what the batches taken left of a request.
    expect(rooms).toEqual([{ chars: LOG_REQUEST_CHARS - 30, entries: MAX_LOG_BATCH - 2 }]);
  });

  it("paces requests, except a batch someone waits for", async () => {
    const requests: string[] = [];
    const courier = new LogCourier(async (batches) => {
      requests.push(batches.map((b) => b.execution_id).join());
      return { results: batches.map((b) => ({ execution_id: b.execution_id, next_seq: b.first_seq + b.entries.length, error: null })) };
    }, 60_000);
    await courier.deliver(batch("a", 0), 10); // an idle runner's first batch leaves at once
    const started = Date.now();
    await courier.deliver(batch("a", 1), 10, { now: true });
    await courier.deliver(batch("a", 2), 10, { now: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    let paced = false;
    void courier.deliver(batch("b", 0), 10).then(() => (paced = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(paced).toBe(false); // waits for the pace (a minute here)
    expect(requests).toEqual(["a", "a", "a"]);
  });

  it("rejects a refused batch with the server's status and detail, and delivers the others", async () => {
    const { courier } = server({ gone: { status: 404, detail: "Execution not found" } });
    const results = await Promise.allSettled([courier.deliver(batch("ok", 0), 10), courier.deliver(batch("gone", 0), 10)]);
    expect(results[0].status).toBe("fulfilled");
    expect(results[1].status).toBe("rejected");
    const error = (results[1] as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.status).toBe(404);
  });
});
