import { afterAll, describe, expect, it } from "vitest";
import { engineServer, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// pg 8 warns, and pg 9 will throw, when a query is issued on a client that is still busy with
// earlier ones. Every path that shares one client (the prepared-statement pool, the event relay's
// connection) must wait its turn; concurrent writes produce concurrent events to relay.

let store: Store;
let server: EngineServer;
afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

describe("the pg driver under concurrent load", () => {
  it("never warns that a client is already executing a query", async () => {
    store = await newStore("driver-warnings");
    // --trace-deprecation: should the warning come back, its stack names the culprit.
    // No agent runs here: no runner child to start (the load is the requests below).
    server = await engineServer(store, { NODE_OPTIONS: "--trace-deprecation", RUNNER_EMBEDDED: "false" }, "driver-warnings");
    const { token, wsId } = await workspaceOn(server);

    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, w) => {
        const seen: number[] = [];
        for (let n = 0; n < 5; n++) {
          const task = await newTask(server.call, token, wsId, { title: `w${w}-${n}` });
          seen.push(
            (await server.call("PATCH", `/api/workspaces/${wsId}/tasks/${task.id}`, { token, json: { title: `w${w}-${n}!` } })).status,
          );
          seen.push((await server.call("GET", `/api/workspaces/${wsId}/board`, { token })).status);
        }
        return seen;
      }),
    );

    expect(statuses.flat().every((status) => status === 200)).toBe(true);
    expect(server.output.join("")).not.toMatch(/already executing a query/);
  }, 120_000);
});
