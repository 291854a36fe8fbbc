import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { onReactionsNudge } from "@/lib/reactions/progress";
import { waitForReactions } from "@/lib/reactions/wait-for-reactions";
import { REACTIONS } from "@/lib/reactions/reactions";

// A request that recorded only events no reaction reads (a runner's log batch) must not wake the
// reactions worker: each wake-up had it claim every reaction's cursor to skip those events.

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
});
