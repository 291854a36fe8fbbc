import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { afterRequests, startAnswering } from "@/lib/db/requests-first";

// The order of the embedded database's work: people's requests before the runners' log batches.

const saved = process.env.DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("on PGlite", () => {
  beforeEach(() => {
    delete process.env.DATABASE_URL;
  });

  it("a log batch waits until the request being answered lets go", async () => {
    let ran = false;
    const release = startAnswering()!;
    const started = Date.now();
    const batch = afterRequests(async () => (ran = true));
    await pause(20);
    expect(ran).toBe(false);
    release();
    await batch;
    // Let go by the request, not by the batches' 100 ms bound.
    expect(Date.now() - started).toBeLessThan(90);
  });

  it("a long request holds a batch up for 100 ms at most", async () => {
    const release = startAnswering()!;
    const started = Date.now();
    await afterRequests(async () => {});
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(90);
    expect(waited).toBeLessThan(1000);
    release();
  });

  it("a batch's own bound shortens its wait: the parts of one runner request share one bound, not one each", async () => {
    const release = startAnswering()!;
    const started = Date.now();
    const waitUntil = started + 40;
    await afterRequests(async () => {}, waitUntil);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(Date.now() - started).toBeLessThan(90);
    const second = Date.now();
    await afterRequests(async () => {}, waitUntil); // its bound has passed: it goes at once
    expect(Date.now() - second).toBeLessThan(30);
    release();
  });

  it("a request never let go stops holding the batches after a second, and letting go twice counts once", async () => {
    const forgotten = startAnswering()!;
    await pause(1050);
    const other = startAnswering()!;
    other();
    other();
    forgotten(); // already let go by its timer: does not count down the others
    const started = Date.now();
    await afterRequests(async () => {});
    expect(Date.now() - started).toBeLessThan(50);
  });

  it("batches go one at a time, in the order they came, and a failed one does not stop the next", async () => {
    const order: string[] = [];
    let endFirst = () => {};
    const first = new Promise<void>((resolve) => (endFirst = resolve));
    const one = afterRequests(async () => {
      order.push("first starts");
      await first;
      order.push("first ends");
      throw new Error("refused");
    });
    const two = afterRequests(async () => order.push("second"));
    await pause(20);
    expect(order).toEqual(["first starts"]);
    endFirst();
    await expect(one).rejects.toThrow("refused");
    await two;
    expect(order).toEqual(["first starts", "first ends", "second"]);
  });
});

it("on PostgreSQL a batch goes at once, beside the requests", async () => {
  process.env.DATABASE_URL = "postgresql://127.0.0.1:5432/unused";
  const release = startAnswering();
  const started = Date.now();
  await afterRequests(async () => {});
  expect(Date.now() - started).toBeLessThan(50);
  release?.();
});
