import { beforeAll, describe, expect, it } from "vitest";
import { newUser, newWorkspace, sharedServer } from "../helpers/api";
import { chooseRunners, queueIn, registerRunner, type ProtocolRunner } from "../helpers/claims";

// Which runner takes a run, and what a run that no runner can take says (docs/runners.md, "Labels"
// and "A run that waits"): a profile's labels, and `waiting_for_runner` on the execution, the run
// history and the task. On the shared server: runners driven over the protocol, dedicated ones that
// only this file's workspace chose (each test chooses its own), so the server's own runner and the
// other files' runs stay out of it.

const server = sharedServer();
let ws: Awaited<ReturnType<typeof queueIn>>;

beforeAll(async () => {
  const owner = await newUser({ isAdmin: true });
  ws = await queueIn(server, { token: owner.token, wsId: (await newWorkspace(owner.token)).id });
});

/** Dedicated runners that the workspace chooses alone from now on. */
async function runners(...specs: [name: string, options?: { capacity?: number; labels?: string[] }][]): Promise<ProtocolRunner[]> {
  const made = [];
  for (const [name, options] of specs) made.push(await registerRunner(server, ws.token, name, { ...options, dedicated: true }));
  await chooseRunners(
    server,
    ws.token,
    [ws.wsId],
    made.map((r) => r.id),
  );
  return made;
}

/** What the run says on its execution, in its task's run history and on its task (the board card). */
async function waitingEverywhere(taskId: string, executionId: string) {
  const execution = await ws.execution(executionId);
  const runs = await server.call("GET", `/api/workspaces/${ws.wsId}/tasks/${taskId}/runs`, { token: ws.token });
  const task = await server.call("GET", `/api/workspaces/${ws.wsId}/tasks/${taskId}`, { token: ws.token });
  expect(runs.body[0].execution_id).toBe(executionId);
  expect(runs.body[0].waiting_for_runner).toEqual(execution.waiting_for_runner);
  expect(task.body.latest_run_waiting_for_runner).toEqual(execution.waiting_for_runner);
  return execution.waiting_for_runner;
}

describe("a queued run that no runner can take", () => {
  it("says none is online while none of its runners is", async () => {
    // Registered runners that never called are not online.
    const [silent, idle] = await runners(["silent"], ["idle", { capacity: 1 }]);
    const { taskId, executionId } = await ws.queue("nobody online");
    expect(await waitingEverywhere(taskId, executionId)).toEqual({
      reason: "none_online",
      message: "Waiting for a runner: none of the runners this workspace allows is online (Settings → Runners)",
    });
    // Once one calls, a runner can take it: nothing to wait for, and it takes it.
    await idle.call("POST", "/heartbeat", { executions: [] });
    expect(await waitingEverywhere(taskId, executionId)).toBeNull();
    expect(await idle.claim()).toBe(executionId);
    expect((await ws.execution(executionId)).waiting_for_runner).toBeNull();
    await idle.finish(executionId);
    await Promise.all([silent.remove(), idle.remove()]);
  });

  it("says every runner is busy while each online runner is full", async () => {
    const [solo] = await runners(["solo", { capacity: 1 }]);
    const first = await ws.queue("busy first");
    expect(await solo.claim()).toBe(first.executionId);
    const second = await ws.queue("busy second");
    expect(await waitingEverywhere(second.taskId, second.executionId)).toEqual({
      reason: "all_busy",
      message: "Waiting for a runner: every runner that can take it is busy",
    });
    expect(await solo.claim()).toBeNull();
    await solo.finish(first.executionId);
    expect((await ws.execution(second.executionId)).waiting_for_runner).toBeNull();
    expect(await solo.claim()).toBe(second.executionId);
    await solo.finish(second.executionId);
    await solo.remove();
  });
});

describe("profile labels", () => {
  it("hands a labelled profile's runs only to runners with every label, and says why the run waits", async () => {
    const profile = await server.call("POST", `/api/workspaces/${ws.wsId}/agents`, {
      token: ws.token,
      json: { name: "gpu agent", kind: "command", command: "/bin/true", labels: ["gpu", "docker"] },
    });
    expect(profile.status).toBe(201);
    expect(profile.body.labels).toEqual(["gpu", "docker"]);
    const [plain, half, gpu] = await runners(
      ["plain", { capacity: 4 }],
      ["half", { capacity: 4, labels: ["gpu"] }],
      ["gpu box", { capacity: 4, labels: ["docker", "gpu", "big"] }],
    );

    const labelled = await ws.queue("needs a gpu", profile.body.id);
    // Runners without both labels leave it queued (and still take a run that needs none).
    expect(await plain.claim()).toBeNull();
    expect(await half.claim()).toBeNull();
    expect(await waitingEverywhere(labelled.taskId, labelled.executionId)).toEqual({
      reason: "no_matching_labels",
      message: "Waiting for a runner with the labels gpu, docker: no online runner has them all",
    });
    const unlabelled = await ws.queue("any runner");
    expect(await plain.claim()).toBe(unlabelled.executionId);
    expect((await ws.execution(labelled.executionId)).status).toBe("queued");

    // The runner with both takes it, and the job carries the profile's labels.
    const answer = await gpu.call("POST", "/claim", { version: "test-1", sandbox: "bubblewrap", free: 1, wait_seconds: 0 });
    expect(answer.body.job).toMatchObject({ execution_id: labelled.executionId, agent: { name: "gpu agent", labels: ["gpu", "docker"] } });
    expect(await ws.execution(labelled.executionId)).toMatchObject({ status: "running", runner_name: "gpu box", waiting_for_runner: null });
    await gpu.finish(labelled.executionId);
    await plain.finish(unlabelled.executionId);
    await Promise.all([plain.remove(), half.remove(), gpu.remove()]);
  });

  it("edits a profile's labels and refuses bad ones with 422", async () => {
    const agents = `/api/workspaces/${ws.wsId}/agents`;
    const created = await server.call("POST", agents, {
      token: ws.token,
      json: { name: "plain agent", kind: "command", command: "/bin/true" },
    });
    expect(created.body.labels).toEqual([]);
    const edited = await server.call("PATCH", `${agents}/${created.body.id}`, { token: ws.token, json: { labels: ["docker"] } });
    expect(edited.status).toBe(200);
    expect(edited.body.labels).toEqual(["docker"]);
    expect((await server.call("GET", `${agents}/${created.body.id}`, { token: ws.token })).body.labels).toEqual(["docker"]);
    for (const labels of [["two words"], [""], ["gpu", "gpu"], "gpu", [7], Array.from({ length: 21 }, (_, i) => `l${i}`)]) {
      const bad = await server.call("PATCH", `${agents}/${created.body.id}`, { token: ws.token, json: { labels } });
      expect(bad.status, JSON.stringify(labels)).toBe(422);
      expect(bad.body.detail[0].loc.slice(0, 2), JSON.stringify(labels)).toEqual(["body", "labels"]);
    }
    const badCreate = await server.call("POST", agents, {
      token: ws.token,
      json: { name: "bad labels", kind: "command", command: "/bin/true", labels: ["a/b"] },
    });
    expect(badCreate.status).toBe(422);
    expect(badCreate.body.detail[0].loc).toEqual(["body", "labels", 0]);
  });
});
