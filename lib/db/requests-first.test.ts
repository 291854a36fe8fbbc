import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { afterRequests, startAnswering, waitForIdleWith } from "@/lib/db/requests-first";

// The order of the embedded database's work: the statements under way before the runners' log
// batches (the database's idle() itself: lib/db/pglite-worker-client.test.ts).

const saved = process.env.DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stand-in for the database's idle(): busy until `done()`, recording each wait's bound. */
function busyDatabase() {
  const bounds: number[] = [];
  let done = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  waitForIdleWith((maxMs) => {
    bounds.push(maxMs);
    return finished;
  });
  return { bounds, done };
}

describe("on PGlite", () => {
  beforeEach(() => {
    delete process.env.DATABASE_URL;
  });

  it("a log batch waits until the database has nothing else under way", async () => {
    const database = busyDatabase();
    let ran = false;
    const batch = afterRequests(async () => (ran = true));
    await pause(20);
    expect(ran).toBe(false);
    database.done();
    await batch;
    expect(ran).toBe(true);
  });

  it("waits 100 ms at most, and no longer than its own bound: the parts of one runner request share one bound", async () => {
    const database = busyDatabase();
    database.done();
    await afterRequests(async () => {});
    expect(database.bounds).toHaveLength(1);
    expect(database.bounds[0]).toBeLessThanOrEqual(100);
    expect(database.bounds[0]).toBeGreaterThan(50);
    const waitUntil = Date.now() + 40;
    await afterRequests(async () => {}, waitUntil);
    expect(database.bounds[1]).toBeLessThanOrEqual(40);
    await afterRequests(async () => {}, Date.now() - 1); // its bound has passed: it goes without asking
    expect(database.bounds).toHaveLength(2);
  });

  it("batches go one at a time, in the order they came, and a failed one does not stop the next", async () => {
    busyDatabase().done();
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

  it("a request holds nothing until its response is sent: the database has a thread of its own", () => {
    expect(startAnswering()).toBeUndefined();
  });
});

it("on PostgreSQL a batch goes at once, beside the requests", async () => {
  process.env.DATABASE_URL = "postgresql://127.0.0.1:5432/unused";
  const database = busyDatabase();
  let ran = false;
  await afterRequests(async () => (ran = true));
  expect(ran).toBe(true);
  expect(database.bounds).toEqual([]);
});
