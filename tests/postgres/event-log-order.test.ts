import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "../helpers/db";

// The ordering trap of an event log read by "id > cursor": with concurrent transactions, ids are
// taken in one order and committed in another. Two overlapping transactions on PostgreSQL: the
// first takes its id and stays open, the second takes a later id and tries to commit first. A
// reader in between must not move its cursor past the first one's id (docs/events.md).

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("event log ids and commit order", () => {
  it("a reader never skips an event whose transaction took its id first but committed last", async () => {
    const { recordEvents } = await import("@/lib/events/record-events");
    const { readEvents } = await import("@/lib/events/read-events");
    const { db, sql } = database;
    const ws = await db.workspace.create({ data: { name: "order" } });

    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstRecorded!: () => void;
    const firstHasItsId = new Promise<void>((resolve) => (firstRecorded = resolve));
    const first = db.$transaction(
      async (tx) => {
        await recordEvents(tx, ws.id, [{ type: "task.deleted", taskId: "first", data: { id: "first" } }]);
        firstRecorded();
        await firstMayCommit;
      },
      { timeout: 30_000 },
    );
    await firstHasItsId;
    let secondCommitted = false;
    const second = db
      .$transaction((tx) => recordEvents(tx, ws.id, [{ type: "task.deleted", taskId: "second", data: { id: "second" } }]), {
        timeout: 30_000,
      })
      .then(() => (secondCommitted = true));
    await new Promise((resolve) => setTimeout(resolve, 500));

    const seen: string[] = [];
    let cursor = "0";
    const read = async () => {
      const page = await readEvents(sql, ws.id, cursor, 100);
      for (const event of page.events) {
        seen.push(JSON.parse(event.json).task_id);
        cursor = event.id;
      }
    };
    await read(); // while the first is open
    expect(secondCommitted, "the second transaction committed while the first, with a smaller id, was open").toBe(false);
    releaseFirst();
    await first;
    await second;
    await read();
    expect(seen).toEqual(["first", "second"]);
  });
});
