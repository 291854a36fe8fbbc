import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError } from "../helpers/api";
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";
import { CLAIM, queueIn, registerRunner } from "../helpers/claims";

// Runners per workspace (issue #35, finding 9; docs/runners.md): a workspace's owners choose which
// of the server's runners may take its jobs, and an excluded runner is never handed one; a runner
// that reports `sandbox: none` gets no jobs while RUNNERS_REQUIRE_SANDBOX holds (the default where
// AGENT_SANDBOX is not off), and is told why. Runners driven over the protocol, on a server of
// their own (no embedded runner), so no other test's runs are in their queue.

let store: Store;
let server: EngineServer;

beforeAll(async () => {
  store = await newStore("workspace-runners");
  server = await engineServer(store, { RUNNER_EMBEDDED: "false" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const choose = (ws: { token: string; wsId: string }, runnerIds: string[] | null) =>
  server.call("PUT", `/api/workspaces/${ws.wsId}/runners`, { token: ws.token, json: { runner_ids: runnerIds } });

describe("a workspace's choice of runners", () => {
  it("hands its runs only to the runners it chose; other workspaces' runs go to any runner", async () => {
    const chosen = await queueIn(server);
    const open = await queueIn(server);
    const alpha = await registerRunner(server, chosen.token, "alpha");
    const beta = await registerRunner(server, chosen.token, "beta");
    const before = await server.call("GET", `/api/workspaces/${chosen.wsId}/runners`, { token: chosen.token });
    expect(before.status).toBe(200);
    expect(before.body.runner_ids).toBeNull();
    expect(before.body.runners.map((r: { name: string; allowed: boolean }) => [r.name, r.allowed])).toEqual([
      ["alpha", true],
      ["beta", true],
    ]);

    const set = await choose(chosen, [alpha.id]);
    expect(set.status).toBe(200);
    expect(set.body.runner_ids).toEqual([alpha.id]);
    expect(set.body.runners.map((r: { name: string; allowed: boolean }) => [r.name, r.allowed])).toEqual([
      ["alpha", true],
      ["beta", false],
    ]);
    const mine = await chosen.queue("only alpha");
    // beta asks first and repeatedly: never this workspace's run.
    expect(await beta.claim()).toBeNull();
    expect(await beta.claim()).toBeNull();
    expect((await chosen.execution(mine.executionId)).status).toBe("queued");
    const theirs = await open.queue("anyone");
    expect(await beta.claim()).toBe(theirs.executionId);
    expect(await alpha.claim()).toBe(mine.executionId);
    await Promise.all([beta.finish(theirs.executionId), alpha.finish(mine.executionId)]);

    // An empty choice: no runner takes its runs. Back to null: every runner again.
    expect((await choose(chosen, [])).body.runner_ids).toEqual([]);
    const waiting = await chosen.queue("nobody");
    expect(await alpha.claim()).toBeNull();
    expect(await beta.claim()).toBeNull();
    // Both runners are online and idle, and the run says why it waits all the same.
    expect((await chosen.execution(waiting.executionId)).waiting_for_runner).toEqual({
      reason: "none_online",
      message: "Waiting for a runner: none of the runners this workspace allows is online (Settings → Runners)",
    });
    expect((await choose(chosen, null)).body.runner_ids).toBeNull();
    expect((await chosen.execution(waiting.executionId)).waiting_for_runner).toBeNull();
    expect(await beta.claim()).toBe(waiting.executionId);
    await beta.finish(waiting.executionId);
    await Promise.all([alpha.remove(), beta.remove()]);
  });

  it("refuses a runner id the server does not have, in words, and keeps the choice as it was", async () => {
    const ws = await queueIn(server);
    const gamma = await registerRunner(server, ws.token, "gamma");
    expect((await choose(ws, [gamma.id])).status).toBe(200);
    const bad = await choose(ws, [gamma.id, "no-such-runner"]);
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body).loc).toEqual(["body", "runner_ids", 1]);
    expect(JSON.stringify(bad.body)).toContain("no runner of this server has this id");
    await gamma.remove();
    // A deleted runner cannot be chosen any more, and drops out of the answer.
    expect((await choose(ws, [gamma.id])).status).toBe(422);
    const after = await server.call("GET", `/api/workspaces/${ws.wsId}/runners`, { token: ws.token });
    expect(after.body.runner_ids).toEqual([]);
    const notAList = await server.call("PUT", `/api/workspaces/${ws.wsId}/runners`, { token: ws.token, json: { runner_ids: "all" } });
    expect(notAList.status).toBe(422);
    expect(onlyError(notAList.body).loc).toEqual(["body", "runner_ids"]);
  });
});

describe("a dedicated runner", () => {
  it("takes only the jobs of workspaces that chose it, and a run waiting only for such runners says so", async () => {
    const team = await queueIn(server);
    const other = await queueIn(server);
    const own = await registerRunner(server, team.token, "team box", { dedicated: true });
    expect(own.record).toMatchObject({ dedicated: true });
    // Online, idle, and yet no job of a workspace that did not choose it.
    const elsewhere = await other.queue("not for the team box");
    expect(await own.claim()).toBeNull();
    expect((await other.execution(elsewhere.executionId)).waiting_for_runner).toEqual({
      reason: "none_online",
      message: "Waiting for a runner: the ones online take only the workspaces that chose them (Settings → Runners)",
    });
    const before = await server.call("GET", `/api/workspaces/${team.wsId}/runners`, { token: team.token });
    expect(before.body.runners.find((r: { id: string }) => r.id === own.id)).toMatchObject({ dedicated: true, allowed: false });

    expect((await choose(team, [own.id])).body.runners.find((r: { id: string }) => r.id === own.id)).toMatchObject({ allowed: true });
    const mine = await team.queue("for the team box");
    expect(await own.claim()).toBe(mine.executionId);
    await own.finish(mine.executionId);
    // A shared runner still serves the other workspace, and only it: the choice keeps it from the team's.
    const shared = await registerRunner(server, other.token, "shared");
    expect(await shared.claim()).toBe(elsewhere.executionId);
    await shared.finish(elsewhere.executionId);
    const listed = await server.call("GET", "/api/runners", { token: team.token });
    expect(
      listed.body.filter((r: { id: string }) => [own.id, shared.id].includes(r.id)).map((r: { dedicated: boolean }) => r.dedicated),
    ).toEqual([true, false]);
    await Promise.all([own.remove(), shared.remove()]);
  });

  it("refuses a dedicated flag that is not a boolean", async () => {
    const { token } = await queueIn(server);
    const bad = await server.call("POST", "/api/runners", { token, json: { name: "x", dedicated: "yes" } });
    expect(bad.status).toBe(422);
    expect(onlyError(bad.body).loc).toEqual(["body", "dedicated"]);
  });
});

describe("RUNNERS_REQUIRE_SANDBOX (on by default where AGENT_SANDBOX is not off)", () => {
  it("gives a runner that reports sandbox none no job, tells it why, and shows it in the runner list", async () => {
    const ws = await queueIn(server);
    const bare = await registerRunner(server, ws.token, "bare");
    const queued = await ws.queue("needs a sandbox");
    const refused = await bare.call("POST", "/claim", { ...CLAIM, sandbox: "none" });
    expect(refused.status).toBe(200);
    expect(refused.body.job).toBeNull();
    expect(refused.body.refused).toMatch(/gets no jobs: it reported no sandbox .* requires one \(RUNNERS_REQUIRE_SANDBOX\)/);
    const execution = await ws.execution(queued.executionId);
    expect(execution.status).toBe("queued");
    // The only online runner is this one: the run says why nobody takes it.
    expect(execution.waiting_for_runner).toEqual({
      reason: "none_online",
      message:
        "Waiting for a runner: none with a sandbox is online, and this server gives no jobs to runners without one (RUNNERS_REQUIRE_SANDBOX)",
    });
    const listed = await server.call("GET", "/api/runners", { token: ws.token });
    expect(listed.body.find((r: { id: string }) => r.id === bare.id).jobs_refused).toBe(refused.body.refused);
    const mine = await server.call("GET", `/api/workspaces/${ws.wsId}/runners`, { token: ws.token });
    expect(mine.body.require_sandbox).toBe(true);
    expect(mine.body.runners.find((r: { id: string }) => r.id === bare.id)).toMatchObject({ sandbox: "none", allowed: true });
    // Started with a sandbox, the same runner gets the run.
    const claimed = await bare.call("POST", "/claim", CLAIM);
    expect(claimed.body).toMatchObject({ job: { execution_id: queued.executionId }, refused: null });
    await bare.finish(queued.executionId);
    await bare.remove();
  });

  it("with RUNNERS_REQUIRE_SANDBOX=false, hands the unsandboxed runner its job", async () => {
    const ownStore = await newStore("workspace-runners-off");
    const own = await engineServer(ownStore, { RUNNER_EMBEDDED: "false", RUNNERS_REQUIRE_SANDBOX: "false" }, "runners-off");
    try {
      const ws = await queueIn(own);
      const bare = await registerRunner(own, ws.token, "bare");
      const queued = await ws.queue("no sandbox needed");
      const claimed = await bare.call("POST", "/claim", { ...CLAIM, sandbox: "none" });
      expect(claimed.body).toMatchObject({ job: { execution_id: queued.executionId }, refused: null });
      const mine = await own.call("GET", `/api/workspaces/${ws.wsId}/runners`, { token: ws.token });
      expect(mine.body.require_sandbox).toBe(false);
      expect(mine.body.runners[0].jobs_refused).toBeNull();
    } finally {
      await own.stop();
      await ownStore.drop();
    }
  }, 120_000);
});

describe("who chooses", () => {
  it("lets members read the choice and only owners change it", async () => {
    const owner = await newUser();
    const member = await newUser();
    const workspace = await newWorkspace(owner.token);
    const url = `/api/workspaces/${workspace.id}/runners`;
    expect(
      (await call("POST", `/api/workspaces/${workspace.id}/members`, { token: owner.token, json: { username: member.username } })).status,
    ).toBe(201);
    const read = await call("GET", url, { token: member.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ runner_ids: null, require_sandbox: true });
    const refused = await call("PUT", url, { token: member.token, json: { runner_ids: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("Only workspace owners may do this");
    expect((await call("PUT", url, { token: owner.token, json: { runner_ids: [] } })).body.runner_ids).toEqual([]);
    const outsider = await newUser();
    expect((await call("GET", url, { token: outsider.token })).status).toBe(404);
  });
});
