import { afterEach, describe, expect, it, vi } from "vitest";
import { startLogConsumer } from "@/lib/events/consume-log";

describe("startLogConsumer", () => {
  afterEach(() => vi.useRealTimers());

  it("works again at once when woken while it reads when the next retry falls due, instead of waiting for its timer", async () => {
    vi.useFakeTimers();
    let wake!: () => void;
    let worked = 0;
    let retryRead!: (ms: number | null) => void;
    let reads = 0;
    const stop = startLogConsumer({
      name: "test",
      lanes: () => 1,
      workOnce: async () => {
        worked++;
        return false;
      },
      // The first read of the retry time hangs until the test answers it; the wake comes meanwhile.
      msUntilNextAttempt: () => (++reads === 1 ? new Promise((resolve) => (retryRead = resolve)) : Promise.resolve(null)),
      onNudge: (listener) => {
        wake = listener;
        return () => {};
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(worked).toBe(1);
    expect(reads).toBe(1);

    wake();
    retryRead(null);
    // Less than the shortest timer it ever sets: only the wake can have it work again.
    await vi.advanceTimersByTimeAsync(40);
    expect(worked).toBe(2);
    stop();
  });
});
