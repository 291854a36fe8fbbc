import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingRawQueries, openOwnDatabase } from "@/tests/helpers/db";
import type { NewEvent } from "@/lib/events/record-events";
import { liveLogEvents, recordIn } from "@/tests/helpers/events";
import { pruneEvents } from "@/lib/events/prune-events";
import { workOnOneCursor } from "@/lib/reactions/run-reactions";
import { listReactionStates } from "@/lib/reactions/list-reaction-states";

// The reactions worker reads the events a reaction may handle. Stream-only events (a run's live
// log, several a second while agents work) must neither make it claim cursors nor, once retention
// deletes them, count as events it missed.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  delete process.env.EVENT_RETENTION_EVENTS;
  await database?.close();
});

const record = (workspaceId: string, events: NewEvent[]) => recordIn(database.db, workspaceId, events);
// An event no reaction handles: the worker reads past it, and it is no stream-only event. (A new
// question is read by notify-people, which tells people of it.)
const question = (id: string): NewEvent => ({ type: "question.answered", taskId: null, data: { id } });
// One start-unblocked reads (a move to Done); without a task, it has nothing to start.
const moveToDone = (id: string): NewEvent => ({ type: "task.moved", taskId: null, data: { id, status: "done" } });

async function drain() {
  let claims = 0;
  while (await workOnOneCursor(database.db)) claims++;
  return claims;
}

async function newWorkspace() {
  return (await database.db.workspace.create({ data: { name: `reactions ${Math.random()}` } })).id;
}

describe("the reactions worker and stream-only events", () => {
  it("claims no cursor for a log that grew only by stream-only events", async () => {
    const ws = await newWorkspace();
    await record(ws, [moveToDone("t1")]);
    expect(await drain()).toBeGreaterThan(0);
    await record(ws, liveLogEvents(5));
    expect(await drain()).toBe(0);
    await record(ws, [moveToDone("t2")]);
    expect(await drain()).toBeGreaterThan(0);
  });
});

describe("the reactions worker and events no reaction reads", () => {
  it("claims no cursor of a reaction that does not read them, and moves every cursor past them", async () => {
    const ws = await newWorkspace();
    // A rename: start-unblocked and fix-conflicts read task.updated, but only to Done or with a merge
    // conflict; notify-people reads every one (a new assignee shows only as a changed list), once.
    await record(ws, [
      question("q1"),
      { type: "task.updated", taskId: null, data: { id: "t", status: "todo", has_merge_conflict: false } },
    ]);
    expect(await drain()).toBe(1);
    const head = await database.db.workspaceEventHead.findUniqueOrThrow({ where: { workspaceId: ws } });
    for (const state of await listReactionStates(database.db, ws)) expect(state).toMatchObject({ cursor: String(head.lastId), behind: 0 });
  });

  it("claims only the cursors of the reactions that read an event, and they pass it", async () => {
    const ws = await newWorkspace();
    await record(ws, [question("q1"), moveToDone("t1"), question("q2")]);
    expect(await drain()).toBe(1);
    for (const state of await listReactionStates(database.db, ws)) expect(state).toMatchObject({ behind: 0, last_error: null });
  });

  it("reads the events after its cursor once per claim, and passes each", async () => {
    const ws = await newWorkspace();
    await record(
      ws,
      Array.from({ length: 10 }, (_, i) => moveToDone(`t${i}`)),
    );
    const counted = countingRawQueries(database.db);
    let claims = 0;
    while (await workOnOneCursor(counted.db)) claims++;
    expect(claims).toBe(1);
    // The claim, the events, and the claim that finds nothing more; it was a read per event.
    expect(counted.count()).toBe(3);
    const head = await database.db.workspaceEventHead.findUniqueOrThrow({ where: { workspaceId: ws } });
    for (const state of await listReactionStates(database.db, ws)) expect(state).toMatchObject({ cursor: String(head.lastId), behind: 0 });
  });

  it("sees no gap when retention deleted only stream-only events, and says so when it deleted one it reads", async () => {
    process.env.EVENT_RETENTION_EVENTS = "2";
    const ws = await newWorkspace();
    await record(ws, [question("q1")]);
    await drain();
    await record(ws, liveLogEvents(6));
    await pruneEvents(database.sql);
    await record(ws, [question("q2")]);
    await drain();
    for (const state of await listReactionStates(database.db, ws)) expect(state).toMatchObject({ behind: 0, last_error: null });

    await record(ws, [question("q3"), question("q4"), question("q5")]);
    await pruneEvents(database.sql);
    await drain();
    for (const state of await listReactionStates(database.db, ws)) {
      expect(state.behind).toBe(0);
      expect(state.last_error).toMatch(/retention deleted them first/);
    }
  });
});
