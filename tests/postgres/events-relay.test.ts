import { afterAll, describe, expect, it } from "vitest";
import { engineServer, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// Two app instances on one PostgreSQL: a change made through one must reach a board (an SSE
// stream) open on the other, by LISTEN/NOTIFY.

let store: Store;
const servers: EngineServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await store?.drop();
});

describe("live events across instances", () => {
  it("delivers task events made on instance A to an event stream open on instance B", async () => {
    store = await newStore("relay");
    const a = await engineServer(store, {}, "relay-a");
    servers.push(a);
    const b = await engineServer(store, {}, "relay-b");
    servers.push(b);
    const { token, wsId } = await workspaceOn(a);

    const unauthenticated = await fetch(`${b.url}/api/workspaces/${wsId}/events`);
    expect(unauthenticated.status).toBe(401);

    const abort = new AbortController();
    const stream = await fetch(`${b.url}/api/workspaces/${wsId}/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const received = readEvents(stream.body!);
    await received.next(); // the "connected" preamble: B is subscribed from here on

    const task = await newTask(a.call, token, wsId, { title: "made on A" });
    const event = await withTimeout(received.next(), 10_000, "task.created to reach instance B");
    expect(event.value).toMatchObject({ event: "task.created" });
    expect(JSON.parse(event.value!.data)).toMatchObject({ id: task.id, title: "made on A" });
    abort.abort();
  });
});

/** Yields SSE messages ({event, data}); the first yield is the stream's opening comment. */
async function* readEvents(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split("\n")
          .filter((line) => !line.startsWith(":") || line.startsWith(": connected"))
          .map((line) =>
            line.startsWith(":")
              ? ["comment", line.slice(1).trim()]
              : [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()],
          ),
      );
      if (fields.event || fields.comment === "connected") yield fields as { event?: string; data: string };
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))]);
}
