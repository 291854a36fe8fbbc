import { afterAll, describe, expect, it } from "vitest";
import { engineServer, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { openStream } from "../helpers/sse";

// Two app instances on one PostgreSQL: a change made through one must reach a board (an SSE
// stream) open on the other. The event is in the shared log; the log's NOTIFY wakes B's stream.

let store: Store;
const servers: EngineServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await store?.drop();
});

describe("live events across instances", () => {
  it("delivers task events made on instance A to an event stream open on instance B", async () => {
    store = await newStore("relay");
    // No agent runs here: no runner child to start on either instance.
    const a = await engineServer(store, { RUNNER_EMBEDDED: "false" }, "relay-a");
    servers.push(a);
    const b = await engineServer(store, { RUNNER_EMBEDDED: "false" }, "relay-b");
    servers.push(b);
    const { token, wsId } = await workspaceOn(a);

    const unauthenticated = await fetch(`${b.url}/api/workspaces/${wsId}/events`);
    expect(unauthenticated.status).toBe(401);

    const stream = await openStream(`${b.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    try {
      const task = await newTask(a.call, token, wsId, { title: "made on A" });
      const message = await stream.next(10_000, "task.created to reach instance B");
      expect(message.event).toBe("task.created");
      const event = JSON.parse(message.data!);
      expect(message.id).toBe(event.id);
      expect(event).toMatchObject({
        type: "task.created",
        workspace_id: wsId,
        task_id: task.id,
        data: { id: task.id, title: "made on A" },
      });
    } finally {
      stream.close();
    }
  });
});
