import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { afterRequests, answering } from "@/lib/db/requests-first";

// The order of the embedded database's work: people's requests before the runners' log batches.

const saved = process.env.DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("on PGlite", () => {
  beforeEach(() => {
    delete process.env.DATABASE_URL;
  });

  it("a log batch waits until the request being answered is answered", async () => {
    const order: string[] = [];
    const request = deferred();
    const answered = answering(async () => {
      await request.promise;
      order.push("request");
    });
    const batch = afterRequests(async () => order.push("batch"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    request.resolve();
    await Promise.all([answered, batch]);
    expect(order).toEqual(["request", "batch"]);
  });

  it("a long request holds a batch up for 100 ms at most", async () => {
    const request = deferred();
    const answered = answering(() => request.promise);
    const started = Date.now();
    await afterRequests(async () => {});
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(90);
    expect(waited).toBeLessThan(1000);
    request.resolve();
    await answered;
  });

  it("batches go one at a time, in the order they came, and a failed one does not stop the next", async () => {
    const order: string[] = [];
    const first = deferred();
    const one = afterRequests(async () => {
      order.push("first starts");
      await first.promise;
      order.push("first ends");
      throw new Error("refused");
    });
    const two = afterRequests(async () => order.push("second"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(["first starts"]);
    first.resolve();
    await expect(one).rejects.toThrow("refused");
    await two;
    expect(order).toEqual(["first starts", "first ends", "second"]);
  });
});

it("on PostgreSQL a batch goes at once, beside the requests", async () => {
  process.env.DATABASE_URL = "postgresql://127.0.0.1:5432/unused";
  const request = deferred();
  const answered = answering(() => request.promise);
  const started = Date.now();
  await afterRequests(async () => {});
  expect(Date.now() - started).toBeLessThan(50);
  request.resolve();
  await answered;
});
