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
  // A workspace's first events make its head row (lib/events/record-events.ts); later ones lock it
  // in the statement that appends them.
  it.each([
    ["a workspace's first events", 0],
    ["a workspace with events", 1],
  ])("a reader never skips an event whose transaction took its id first but committed last: %s", async (_, before) => {
    const { recordEvents } = await import("@/lib/events/record-events");
    const { readEvents } = await import("@/lib/events/read-events");
    const { db, sql } = database;
    const ws = await db.workspace.create({ data: { name: "order" } });
    for (let i = 0; i < before; i++) {
      await db.$transaction((tx) => recordEvents(tx, ws.id, [{ type: "task.deleted", taskId: "earlier", data: { id: "earlier" } }]));
    }

    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstRecorded!: (id: string) => void;
    const firstHasItsId = new Promise<string>((resolve) => (firstRecorded = resolve));
    const first = db.$transaction(
      async (tx) => {
        await recordEvents(tx, ws.id, [{ type: "task.deleted", taskId: "first", data: { id: "first" } }]);
        const [{ id }] = await tx.$queryRawUnsafe<{ id: string }[]>(
          `SELECT max(id)::text AS id FROM workspace_events WHERE workspace_id = $1`,
          ws.id,
        );
        firstRecorded(id);
        await firstMayCommit;
      },
      { timeout: 30_000 },
    );
    const firstId = await firstHasItsId;
    let secondCommitted = false;
    const second = db
      .$transaction((tx) => recordEvents(tx, ws.id, [{ type: "task.deleted", taskId: "second", data: { id: "second" } }]), {
        timeout: 30_000,
      })
      .then(() => (secondCommitted = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The second waits for the head row's lock before it takes an id: had it taken one first, a
    // third writer could commit a larger id before it.
    const [sequence] = await db.$queryRawUnsafe<{ last: string }[]>(`SELECT last_value::text AS last FROM workspace_events_id_seq`);
    expect(sequence.last).toBe(firstId);

    const seen: string[] = [];
    let cursor = (await readEvents(sql, ws.id, "0", 100)).events.at(-1)?.id ?? "0";
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
