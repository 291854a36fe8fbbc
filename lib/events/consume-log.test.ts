import { afterEach, describe, expect, it, vi } from "vitest";
import { startLogConsumer } from "@/lib/events/consume-log";
import { wakeWorkspace } from "@/lib/events/wake";

/** A consumer's extra wake-up source that the test fires. */
function nudgeable() {
  let listener = () => {};
  return {
    onNudge: (wake: () => void) => {
      listener = wake;
      return () => {};
    },
    wake: () => listener(),
  };
}

describe("startLogConsumer", () => {
  afterEach(() => vi.useRealTimers());

  it("works again at once when woken while it reads when the next retry falls due, instead of waiting for its timer", async () => {
    vi.useFakeTimers();
    const nudge = nudgeable();
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
      onNudge: nudge.onNudge,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(worked).toBe(1);
    expect(reads).toBe(1);

    nudge.wake();
    retryRead(null);
    // Less than the shortest timer it ever sets: only the wake can have it work again.
    await vi.advanceTimersByTimeAsync(40);
    expect(worked).toBe(2);
    stop();
  });

  it("claims once on a wake-up with nothing due, and works on all its lanes at once when there is work", async () => {
    vi.useFakeTimers();
    const nudge = nudgeable();
    let claims = 0;
    let due = 0;
    let running = 0;
    let mostAtOnce = 0;
    const stop = startLogConsumer({
      name: "test",
      lanes: () => 4,
      workOnce: async () => {
        claims++;
        if (due === 0) return false;
        due--;
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
        return true;
      },
      msUntilNextAttempt: async () => null,
      onNudge: nudge.onNudge,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(claims).toBe(1);

    nudge.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(claims).toBe(2);

    due = 8;
    nudge.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(due).toBe(0);
    expect(mostAtOnce).toBe(4);
    stop();
  });

  it("when it settles, works once for a burst of events, 100 ms after the first; a nudge is not delayed", async () => {
    vi.useFakeTimers();
    const nudge = nudgeable();
    const worked = { eager: 0, settled: 0 };
    const consumer = (name: keyof typeof worked, settles: boolean) =>
      startLogConsumer({
        name,
        lanes: () => 1,
        workOnce: async () => (worked[name]++, false),
        msUntilNextAttempt: async () => null,
        ...(settles ? { settles, onNudge: nudge.onNudge } : {}),
      });
    const stops = [consumer("eager", false), consumer("settled", true)];
    await vi.advanceTimersByTimeAsync(0);
    expect(worked).toEqual({ eager: 1, settled: 1 });

    for (let i = 0; i < 5; i++) {
      wakeWorkspace(`workspace-${i}`);
      await vi.advanceTimersByTimeAsync(15);
    }
    // 75 ms after the first event: the consumer that does not settle has worked for each.
    expect(worked).toEqual({ eager: 6, settled: 1 });
    await vi.advanceTimersByTimeAsync(25);
    expect(worked).toEqual({ eager: 6, settled: 2 });
    await vi.advanceTimersByTimeAsync(500);
    expect(worked.settled).toBe(2);

    nudge.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(worked.settled).toBe(3);
    stops.forEach((stop) => stop());
  });
});
