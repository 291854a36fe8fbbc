import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, newUser, newWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";
import { openStream, type SseMessage } from "../helpers/sse";

// The workspace event log behind GET …/events: every change is logged in its own transaction, the
// stream sends each event with its log id, resumes from the board's cursor or Last-Event-ID.

let user: Awaited<ReturnType<typeof newUser>>;
let token: string;

beforeAll(async () => {
  user = await newUser();
  token = user.token;
});

const events = (ws: string, query = "") => `${baseUrl()}/api/workspaces/${ws}/events${query}`;
const bearer = () => ({ authorization: `Bearer ${token}` });
const parse = (message: SseMessage) => JSON.parse(message.data!);

describe("the workspace event log", () => {
  it("GET …/board returns the log's cursor, still in one SQL statement", async () => {
    const ws = (await newWorkspace(token)).id;
    const empty = await call("GET", `/api/workspaces/${ws}/board`, { token });
    expect(empty.status).toBe(200);
    expect(empty.body.cursor).toBe("0");
    expect(empty.headers.get("x-sql-statements")).toBe("1");
    await createTask(token, ws, { title: "one" });
    const board = await call("GET", `/api/workspaces/${ws}/board`, { token });
    expect(board.body.cursor).toMatch(/^\d+$/);
    expect(BigInt(board.body.cursor)).toBeGreaterThan(0n);
    expect(board.headers.get("x-sql-statements")).toBe("1");
  });

  it("delivers an event committed between the board's load and the stream's connection", async () => {
    const ws = (await newWorkspace(token)).id;
    const board = await call("GET", `/api/workspaces/${ws}/board`, { token });
    // No stream is open: the change is only in the log.
    const task = await createTask(token, ws, { title: "made before the stream connected", status: "todo" });
    const stream = await openStream(events(ws, `?after=${board.body.cursor}`), bearer());
    try {
      const message = await stream.next(10_000, "task.created");
      expect(message.event).toBe("task.created");
      const event = parse(message);
      expect(message.id).toBe(event.id);
      expect(Object.keys(event).sort()).toEqual(["actor", "at", "data", "id", "task_id", "type", "workspace_id"]);
      expect(event).toMatchObject({
        type: "task.created",
        workspace_id: ws,
        task_id: task.id,
        actor: { type: "user", user_id: user.id, username: user.username },
        data: { id: task.id, title: "made before the stream connected", status: "todo" },
      });
      expect(new Date(event.at).toISOString()).toBe(event.at);
      expect(BigInt(event.id)).toBeGreaterThan(BigInt(board.body.cursor));
    } finally {
      stream.close();
    }
  });

  it("logs every change with no stream open, in commit order, and a new stream without a cursor starts from now", async () => {
    const ws = (await newWorkspace(token)).id;
    const task = await createTask(token, ws, { title: "a", status: "todo" });
    await call("PATCH", `/api/workspaces/${ws}/tasks/${task.id}`, { token, json: { title: "b" } });
    await call("POST", `/api/workspaces/${ws}/tasks/${task.id}/move`, { token, json: { column: "done" } });
    const question = await call("POST", `/api/workspaces/${ws}/questions`, { token, json: { task_id: task.id, content: "why?" } });
    await call("POST", `/api/workspaces/${ws}/questions/${question.body.id}/answer`, { token, json: { answer: "because" } });
    await call("DELETE", `/api/workspaces/${ws}/questions/${question.body.id}`, { token });
    await call("DELETE", `/api/workspaces/${ws}/tasks/${task.id}`, { token });

    const all = await openStream(events(ws, "?after=0"), bearer());
    const seen = await all.until((m) => m.event === "task.deleted");
    all.close();
    expect(seen.map((m) => m.event)).toEqual([
      "task.created",
      "task.updated",
      "task.moved",
      "question.created",
      "question.answered",
      "question.deleted",
      "task.deleted",
    ]);
    const ids = seen.map((m) => BigInt(m.id!));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    expect(parse(seen[1]).data).toMatchObject({ title: "b" });
    expect(parse(seen[2]).data).toMatchObject({ status: "done" });
    expect(parse(seen[4]).data).toMatchObject({ answer: "because", task_id: task.id });
    expect(parse(seen[6])).toMatchObject({ task_id: task.id, data: { id: task.id } });

    const fromNow = await openStream(events(ws), bearer());
    try {
      const later = await createTask(token, ws, { title: "after connecting" });
      const first = await fromNow.next(10_000, "the next task.created");
      expect(parse(first)).toMatchObject({ type: "task.created", task_id: later.id });
    } finally {
      fromNow.close();
    }
  });

  it("replays what a reconnecting client missed after its Last-Event-ID", async () => {
    const ws = (await newWorkspace(token)).id;
    const board = await call("GET", `/api/workspaces/${ws}/board`, { token });
    const first = await openStream(events(ws, `?after=${board.body.cursor}`), bearer());
    await createTask(token, ws, { title: "seen" });
    const seen = await first.next(10_000, "the first task.created");
    first.close();

    const missed = [];
    for (const title of ["missed 1", "missed 2"]) missed.push(await createTask(token, ws, { title }));
    // As EventSource reconnects: the same URL, plus the id of the last event it received.
    const again = await openStream(events(ws, `?after=${board.body.cursor}`), { ...bearer(), "last-event-id": seen.id! });
    try {
      const replayed = [await again.next(10_000, "missed 1"), await again.next(10_000, "missed 2")];
      expect(replayed.map((m) => parse(m).task_id)).toEqual(missed.map((t) => t.id));
    } finally {
      again.close();
    }
  });

  it("answers `reset` to a cursor the log never gave out, and 422 to a malformed ?after", async () => {
    const ws = (await newWorkspace(token)).id;
    await createTask(token, ws, { title: "x" });
    const board = await call("GET", `/api/workspaces/${ws}/board`, { token });
    for (const headers of [{ "last-event-id": "garbage" }, { "last-event-id": "999999999999" }]) {
      const stream = await openStream(events(ws), { ...bearer(), ...headers });
      try {
        const message = await stream.next(10_000, "reset");
        expect(message.event).toBe("reset");
        expect(message.id).toBe(board.body.cursor);
        expect(parse(message)).toEqual({ cursor: board.body.cursor });
      } finally {
        stream.close();
      }
    }
    const bad = await call("GET", `/api/workspaces/${ws}/events?after=abc`, { token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "after"]);
  });

  it("does not let a stream of one workspace see another's events, nor a non-member open it", async () => {
    const mine = (await newWorkspace(token)).id;
    const other = await newUser();
    const theirs = (await newWorkspace(other.token)).id;
    const denied = await call("GET", `/api/workspaces/${theirs}/events`, { token });
    expect(denied.status).toBe(404);
    const stream = await openStream(events(mine, "?after=0"), bearer());
    try {
      await createTask(other.token, theirs, { title: "theirs" });
      const task = await createTask(token, mine, { title: "mine" });
      const message = await stream.next(10_000, "my task.created");
      expect(parse(message)).toMatchObject({ workspace_id: mine, task_id: task.id });
    } finally {
      stream.close();
    }
  });
});
