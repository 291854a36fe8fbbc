import { describe, expect, it } from "vitest";
import { chooseRunners, dedicatedRunnerWorkspace, registerRunner } from "../helpers/claims";

// How free runner slots are shared (docs/runners.md, "Fairness"): round-robin across workspaces,
// oldest run first within one, and a workspace's own cap (max_concurrent_runs). On the shared
// server: each test's runners are dedicated ones that only its workspaces chose, driven over the
// protocol, so no other file's runs are in their queue and no other runner takes the test's.

describe("fairness", () => {
  it("starts one run queued behind 10 from another workspace within one slot", async () => {
    const { runner, workspaces } = await dedicatedRunnerWorkspace("one slot", { capacity: 1 }, 1);
    const [busy, quiet] = workspaces;
    const many: string[] = [];
    for (let i = 0; i < 10; i++) many.push((await busy.queue(`busy ${i}`)).executionId);
    const single = (await quiet.queue("the quiet one")).executionId;

    const order: string[] = [];
    for (let i = 0; i < 11; i++) {
      const claimed = await runner.claim();
      expect(claimed).not.toBeNull();
      order.push(claimed!);
      await runner.finish(claimed!);
    }
    expect(order.indexOf(single)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(single)).toBeLessThanOrEqual(1);
    // Within the busy workspace, its runs went oldest first, and every run was taken once.
    expect(order.filter((id) => id !== single)).toEqual(many);
    expect(await runner.claim()).toBeNull();
    await runner.remove();
  });

  it("serves workspaces in turn while each has runs queued", async () => {
    const { runner, workspaces } = await dedicatedRunnerWorkspace("turns", { capacity: 1 }, 2);
    const [a, b, c] = workspaces;
    const owner = new Map<string, string>();
    for (const [ws, name] of [
      [a, "a"],
      [b, "b"],
      [c, "c"],
    ] as const) {
      for (let i = 0; i < 3; i++) owner.set((await ws.queue(`${name} ${i}`)).executionId, name);
    }
    const served: string[] = [];
    for (let i = 0; i < 9; i++) {
      const claimed = (await runner.claim())!;
      served.push(owner.get(claimed)!);
      await runner.finish(claimed);
    }
    // Each round gives every workspace one slot before any gets a second.
    for (let round = 0; round < 3; round++) expect(served.slice(round * 3, round * 3 + 3).sort()).toEqual(["a", "b", "c"]);
    await runner.remove();
  });
});

describe("max_concurrent_runs", () => {
  it("caps a workspace's runs holding a runner, and leaves other workspaces' runs alone", async () => {
    const { server, runner, workspaces } = await dedicatedRunnerWorkspace("roomy", { capacity: 4 }, 1);
    const [capped, other] = workspaces;
    const workspace = `/api/workspaces/${capped.wsId}`;
    expect((await server.call("GET", workspace, { token: capped.token })).body.max_concurrent_runs).toBeNull();
    for (const bad of [0, -1, 1.5, "2", 10_001]) {
      const refused = await server.call("PATCH", workspace, { token: capped.token, json: { max_concurrent_runs: bad } });
      expect(refused.status, JSON.stringify(bad)).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(["body", "max_concurrent_runs"]);
    }
    const set = await server.call("PATCH", workspace, { token: capped.token, json: { max_concurrent_runs: 1 } });
    expect(set.status).toBe(200);
    expect(set.body.max_concurrent_runs).toBe(1);

    const first = await capped.queue("capped first");
    const second = await capped.queue("capped second");
    expect(await runner.claim()).toBe(first.executionId);
    // The runner has room, the workspace does not: the second waits and says why.
    expect(await runner.claim()).toBeNull();
    expect((await capped.execution(second.executionId)).waiting_for_runner).toEqual({
      reason: "workspace_limit",
      message: "Waiting for a runner: this workspace already runs its maximum of 1 at once",
    });
    const elsewhere = await other.queue("another workspace");
    expect(await runner.claim()).toBe(elsewhere.executionId);
    await runner.finish(first.executionId);
    expect(await runner.claim()).toBe(second.executionId);

    // null lifts the cap.
    const lifted = await server.call("PATCH", workspace, { token: capped.token, json: { max_concurrent_runs: null } });
    expect(lifted.body.max_concurrent_runs).toBeNull();
    const third = await capped.queue("capped third");
    expect(await runner.claim()).toBe(third.executionId);
    for (const id of [second.executionId, elsewhere.executionId, third.executionId]) await runner.finish(id);
    await runner.remove();
  });
});

describe("concurrent claims", () => {
  it("never give one run to two runners, nor a capped workspace more than its cap", async () => {
    const { server, token, runner, workspaces } = await dedicatedRunnerWorkspace("racer 1", { capacity: 10 }, 1);
    const [capped, open] = workspaces;
    const runners = [
      runner,
      ...(await Promise.all([2, 3].map((n) => registerRunner(server, token, `racer ${n}`, { capacity: 10, dedicated: true })))),
    ];
    await chooseRunners(
      server,
      token,
      workspaces.map((ws) => ws.wsId),
      runners.map((racer) => racer.id),
    );
    expect(
      (await server.call("PATCH", `/api/workspaces/${capped.wsId}`, { token: capped.token, json: { max_concurrent_runs: 2 } })).status,
    ).toBe(200);
    const cappedRuns = new Set<string>();
    for (let i = 0; i < 5; i++) cappedRuns.add((await capped.queue(`capped ${i}`)).executionId);
    for (let i = 0; i < 5; i++) await open.queue(`open ${i}`);
    const taken: string[] = [];
    const holders = new Map<string, (typeof runners)[number]>();
    // Rounds of six claims at once, until a round takes nothing (a claim that finds every candidate
    // locked by another gets null, but the claim holding the lock takes it, so a round that takes
    // nothing means nothing is left to take).
    for (let round = 0; round < 20; round++) {
      const claims = await Promise.all(runners.flatMap((racer) => [racer, racer].map(async (r) => ({ racer: r, id: await r.claim() }))));
      const got = claims.filter((claim) => claim.id !== null);
      if (got.length === 0) break;
      for (const { racer, id } of got) {
        taken.push(id!);
        holders.set(id!, racer);
      }
    }
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.filter((id) => cappedRuns.has(id))).toHaveLength(2);
    expect(taken.filter((id) => !cappedRuns.has(id))).toHaveLength(5);
    for (const [id, racer] of holders) await racer.finish(id);
    await Promise.all(runners.map((racer) => racer.remove()));
  });
});
