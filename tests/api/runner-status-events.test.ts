import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, type EngineServer, type Store } from "../helpers/engine";
import { queueIn, registerRunner } from "../helpers/claims";

// A runner coming online or going away is recorded (docs/runners.md, "A run that waits";
// docs/events.md): a runner.updated event in each workspace with queued runs, once per change of
// status and never per heartbeat, so an open board reads its queued runs' waiting_for_runner again.
// A server that runs no agent itself; runners driven over the protocol; a short lease, so a silent
// runner goes offline within seconds.

const LEASE = 3;

let store: Store;
let server: EngineServer;
let ws: Awaited<ReturnType<typeof queueIn>>;

beforeAll(async () => {
  store = await newStore("runner-status-events");
  server = await engineServer(store, { RUNNER_EMBEDDED: "false", RUNNER_LEASE_SECONDS: String(LEASE) });
  ws = await queueIn(server);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

interface Received {
  id: string;
  type: string;
  task_id: string | null;
  data: any;
}

/** The workspace's event stream from its board's cursor, read into `events` until closed. */
async function openStream(wsId: string, token: string) {
  const board = await server.call("GET", `/api/workspaces/${wsId}/board`, { token });
  expect(board.status).toBe(200);
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/workspaces/${wsId}/events?after=${board.body.cursor}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const events: Received[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("\n");
          buffer = buffer.slice(end + 2);
          if (data) events.push(JSON.parse(data));
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    events,
    close: () => controller.abort(),
    /** The first event after the `seen` first ones that matches. */
    next: (match: (event: Received) => boolean, seen = 0, what = "an event") =>
      eventually(async () => events.slice(seen).find(match), 20_000, what),
  };
}

const runnerEvents = (events: Received[], runnerId: string) => events.filter((e) => e.type === "runner.updated" && e.data.id === runnerId);

describe("a runner's status on the event log", () => {
  it("records a runner coming online in a workspace with a queued run, once, and the run stops waiting", async () => {
    const { taskId, executionId } = await ws.queue("waits for a runner");
    expect((await ws.execution(executionId)).waiting_for_runner).toEqual({
      reason: "none_online",
      message: "Waiting for a runner: none is online",
    });
    const stream = await openStream(ws.wsId, ws.token);
    // A workspace with nothing queued hears nothing of runners.
    const idle = await queueIn(server);
    const idleStream = await openStream(idle.wsId, idle.token);

    const runner = await registerRunner(server, ws.token, "arrives", { capacity: 1 });
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const online = await stream.next((e) => e.type === "runner.updated", 0, "runner.updated online");
    expect(online).toMatchObject({ task_id: null, data: { id: runner.id, name: "arrives", status: "online" } });
    expect((await ws.execution(executionId)).waiting_for_runner).toBeNull();
    const task = await server.call("GET", `/api/workspaces/${ws.wsId}/tasks/${taskId}`, { token: ws.token });
    expect(task.body.latest_run_waiting_for_runner).toBeNull();

    // Heartbeats of a runner already online record nothing: a later change is the next event.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const marker = await newTask(server.call, ws.token, ws.wsId, { title: "marker" });
    await stream.next((e) => e.type === "task.created" && e.task_id === marker.id, 0, "the marker");
    expect(runnerEvents(stream.events, runner.id)).toHaveLength(1);

    const idleMarker = await newTask(server.call, idle.token, idle.wsId, { title: "idle marker" });
    await idleStream.next((e) => e.task_id === idleMarker.id, 0, "the idle workspace's marker");
    expect(idleStream.events.filter((e) => e.type === "runner.updated")).toEqual([]);
    idleStream.close();

    expect(await runner.claim()).toBe(executionId);
    await runner.finish(executionId);
    stream.close();
    await runner.remove();
  });

  it("records a runner going silent as offline, and a queued run waits for one again", async () => {
    const runner = await registerRunner(server, ws.token, "leaves", { capacity: 1 });
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const { executionId } = await ws.queue("queued while one is online");
    // Starting a run waits up to 3 s for a free runner to take it, longer than the lease: call again.
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    // Online and free: the run waits for nothing (the runner has not claimed it yet).
    expect((await ws.execution(executionId)).waiting_for_runner).toBeNull();
    const stream = await openStream(ws.wsId, ws.token);
    // No call for longer than the lease: the lease sweep (every 5 s) records it offline.
    const offline = await stream.next((e) => e.type === "runner.updated" && e.data.status === "offline", 0, "runner.updated offline");
    expect(offline.data).toEqual({ id: runner.id, name: "leaves", status: "offline" });
    expect((await ws.execution(executionId)).waiting_for_runner?.reason).toBe("none_online");
    expect(runnerEvents(stream.events, runner.id)).toHaveLength(1);

    // Back: online again, once.
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const back = await stream.next((e) => e.type === "runner.updated" && e.data.status === "online", 0, "runner.updated back online");
    expect(back.data.id).toBe(runner.id);
    expect(await runner.claim()).toBe(executionId);
    await runner.finish(executionId);
    stream.close();
    await runner.remove();
  });

  it("records a deleted runner offline at once", async () => {
    const runner = await registerRunner(server, ws.token, "deleted");
    expect((await runner.call("POST", "/heartbeat", { executions: [] })).status).toBe(200);
    const { executionId } = await ws.queue("queued before the delete");
    const stream = await openStream(ws.wsId, ws.token);
    const deletedAt = Date.now();
    await runner.remove();
    const offline = await stream.next((e) => e.type === "runner.updated" && e.data.id === runner.id, 0, "runner.updated deleted");
    expect(offline.data.status).toBe("offline");
    // Sooner than the lease: the delete records it, not the sweep.
    expect(Date.now() - deletedAt).toBeLessThan(LEASE * 1000);
    expect((await ws.execution(executionId)).waiting_for_runner?.reason).toBe("none_online");
    await ws.cancel(executionId);
    stream.close();
  });
});
