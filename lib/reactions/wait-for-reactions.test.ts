import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingRawQueries, openOwnDatabase } from "@/tests/helpers/db";
import { onReactionsNudge } from "@/lib/reactions/progress";
import { waitForReactions } from "@/lib/reactions/wait-for-reactions";
import { REACTIONS } from "@/lib/reactions/reactions";
import { workOnOneCursor } from "@/lib/reactions/run-reactions";
import { trackingRecorded } from "@/lib/events/recorded-events";
import type { NewEvent } from "@/lib/events/record-events";
import { recordIn } from "@/tests/helpers/events";

// A request that recorded only events no reaction reads (a runner's log batch) must not wake the
// reactions worker: each wake-up had it claim every reaction's cursor to skip those events. Many
// requests waiting in one workspace must learn the worker's progress from it, not by each querying
// the database at every step it takes.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("waitForReactions", () => {
  it("nudges the reactions worker only for events a reaction reads", async () => {
    let nudges = 0;
    const stop = onReactionsNudge(() => nudges++);
    try {
      const read = REACTIONS[0].types[0];
      await waitForReactions(database.db, new Map([["w-log", { lastId: BigInt(7), types: new Set(["execution.log", "runner.updated"]) }]]));
      expect(nudges).toBe(0);
      await waitForReactions(database.db, new Map([["w-task", { lastId: BigInt(0), types: new Set([read]) }]]));
      expect(nudges).toBe(1);
    } finally {
      stop();
    }
  });

  it("lets many waiting requests learn the worker's progress without a query per step", async () => {
    const ws = (await database.db.workspace.create({ data: { name: `waiters ${Math.random()}` } })).id;
    // Ten moves to Done, which start-unblocked reads (without tasks, it has nothing to start).
    const moves: NewEvent[] = Array.from({ length: 10 }, (_, i) => ({
      type: "task.moved",
      taskId: null,
      data: { id: `t${i}`, status: "done" },
    }));
    const { recorded } = await trackingRecorded(() => recordIn(database.db, ws, moves));
    const counted = countingRawQueries(database.db);
    const waiters = 20;
    // No poll within the wait: only the worker's reports can end it early.
    const timing = { waitMs: 30_000, firstPollMs: 60_000 };
    const started = Date.now();
    const waiting = Promise.all(Array.from({ length: waiters }, () => waitForReactions(counted.db, recorded, timing)));
    while (await workOnOneCursor(database.db));
    await waiting;
    expect(Date.now() - started).toBeLessThan(timing.waitMs);
    // One query each, to start; before, every waiter queried again at each of the worker's ten steps.
    expect(counted.count()).toBe(waiters);
  });
});
