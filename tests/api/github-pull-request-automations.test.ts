import { beforeAll, describe, expect, it } from "vitest";
import { eventually, finished, newTask, reactionsCaughtUp, type EngineServer } from "../helpers/engine";
import { githubPullRequestServer, pushToRemote, remoteHead } from "../helpers/github-pull-requests";
import type { FakeGithub } from "../fixtures/fake-github/server";
import { examplePayload, pullRequestPayload } from "../fixtures/fake-github/webhooks";

// The automations on a linked pull request (fix-conflicts, failing checks, opening the pull request after
// a run, retries), against a server whose GitHub is the fake and whose agent commits for real
// (tests/helpers/github-pull-requests.ts). Opening a pull request by hand is in github-pull-requests.test.ts.

const github = githubPullRequestServer("github-pr-automations");
const { connected, withBranch, runToEnd, send, followUpOf, runsOf, runsCount } = github;
let fake: FakeGithub;
let server: EngineServer;

beforeAll(() => {
  ({ fake, server } = github.started());
});

describe("GitHub automations", () => {
  it("are all off by default, and a conflicted pull request then starts nothing", async () => {
    const ctx = await connected();
    const settings = await server.call("GET", `/api/workspaces/${ctx.wsId}/codehost/github/settings`, { token: ctx.token });
    expect(settings.body).toEqual({
      merged_to_done: true,
      auto_open_pull_request: false,
      auto_fix_conflicts: false,
      auto_fix_checks: false,
    });
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Off", status: "in_review" });
    const pull = fake.addPull(ctx.repo, { head: "tb/off", body: created.id, mergeability: [[false, "dirty"]] });
    const delivery = await send("pull_request", pullRequestPayload(fake.url, "opened", ctx.repo, ctx.installationId, pull));
    expect(await followUpOf(ctx, delivery.deliveryId, /mergeability/)).toMatch(new RegExp(`; mergeability #${pull.number}: dirty$`));
    expect((await ctx.task(created.id)).has_merge_conflict).toBe(true);
    await reactionsCaughtUp(server.call, ctx.token, ctx.wsId);
    expect(await runsOf(ctx, created.id)).toEqual([]);

    // Only owners change them.
    const member = await server.call("POST", "/api/users", {
      token: ctx.token,
      json: { username: `m-${Date.now()}`, password: "member-pass" },
    });
    await server.call("POST", `/api/workspaces/${ctx.wsId}/members`, {
      token: ctx.token,
      json: { username: member.body.username, role: "member" },
    });
    const memberLogin = await server.call("POST", "/api/auth/login", { json: { username: member.body.username, password: "member-pass" } });
    const refused = await server.call("PATCH", `/api/workspaces/${ctx.wsId}/codehost/github/settings`, {
      token: memberLogin.body.access_token,
      json: { auto_fix_conflicts: true },
    });
    expect(refused.status).toBe(403);
    const invalid = await server.call("PATCH", `/api/workspaces/${ctx.wsId}/codehost/github/settings`, {
      token: ctx.token,
      json: { auto_fix_checks: "on" },
    });
    expect(invalid.status).toBe(422);
  });

  it("starts fix-conflicts once per head commit of a conflicted pull request", async () => {
    const ctx = await connected({ auto_fix_conflicts: true });
    const created = await withBranch(ctx, "Conflicted", "tb/conflicted");
    pushToRemote(ctx.bare, "tb/conflicted", { "feature.txt": "the feature\n" });
    const pull = fake.addPull(ctx.repo, { head: "tb/conflicted", body: created.id, mergeability: [[false, "dirty"]] });

    const first = await send("pull_request", pullRequestPayload(fake.url, "opened", ctx.repo, ctx.installationId, pull));
    await followUpOf(ctx, first.deliveryId, /mergeability #\d+: dirty/);
    // The fix-conflicts reaction reads the conflict from the event log and starts the run.
    const [run] = await runsCount(ctx, created.id, 1);
    expect(run.trigger).toBe("fix_conflicts");
    const executionId = run.execution_id;
    // git merges main into the branch without conflicts, pushes, and the run succeeds without the agent.
    expect((await finished(server.call, ctx.token, ctx.wsId, executionId, 30_000)).status).toBe("succeeded");
    expect((await ctx.task(created.id)).has_merge_conflict).toBe(false);

    // GitHub still says dirty for the same commit (say the fix did not help): nothing more starts.
    const again = await send("pull_request", pullRequestPayload(fake.url, "edited", ctx.repo, ctx.installationId, pull));
    await followUpOf(ctx, again.deliveryId, /mergeability #\d+: dirty/);
    expect((await ctx.task(created.id)).has_merge_conflict).toBe(true);
    await reactionsCaughtUp(server.call, ctx.token, ctx.wsId);
    expect(await runsOf(ctx, created.id)).toHaveLength(1);

    // A new head commit that conflicts again gets its own attempt.
    pull.head_sha = "b".repeat(40);
    const pushed = await send("pull_request", pullRequestPayload(fake.url, "synchronize", ctx.repo, ctx.installationId, pull));
    await followUpOf(ctx, pushed.deliveryId, /mergeability #\d+: dirty/);
    expect((await runsCount(ctx, created.id, 2)).map((r) => r.trigger)).toEqual(["fix_conflicts", "fix_conflicts"]);
  });

  it("starts an agent run with the failing checks once per head commit when a linked pull request's checks fail", async () => {
    const ctx = await connected({ auto_fix_checks: true });
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "checks fail", status: "in_review" });
    const pull = fake.addPull(ctx.repo, { head: "tb/red", body: created.id });
    const linked = await send("pull_request", pullRequestPayload(fake.url, "opened", ctx.repo, ctx.installationId, pull));
    await followUpOf(ctx, linked.deliveryId, /mergeability/);

    const suite = (sha: string) => {
      const payload = examplePayload("check_suite", "completed");
      payload.installation = { id: ctx.installationId, node_id: "x" };
      payload.repository.full_name = ctx.repo;
      Object.assign(payload.check_suite, { head_sha: sha, status: "completed", conclusion: "failure", pull_requests: [] });
      return payload;
    };
    fake.setCheckRuns(ctx.repo, pull.head_sha, [
      { name: "lint", status: "completed", conclusion: "success" },
      { name: "unit tests", status: "completed", conclusion: "failure", title: "2 failed", summary: "expected 1, got 2" },
    ]);
    const failed = await send("check_suite", suite(pull.head_sha));
    const line = await followUpOf(ctx, failed.deliveryId, /auto fix-checks/);
    expect(line).toMatch(/checks: failure; auto fix-checks: started execution \S+/);
    expect((await ctx.task(created.id)).checks).toBe("failure");
    expect((await runsOf(ctx, created.id)).map((r) => r.trigger)).toEqual(["manual"]);

    const repeated = await send("check_suite", suite(pull.head_sha));
    expect(await followUpOf(ctx, repeated.deliveryId, /auto fix-checks/)).toMatch(/auto fix-checks: already tried for/);
    expect(await runsOf(ctx, created.id)).toHaveLength(1);

    // The first run ends, so the next is not refused as a second active run.
    await finished(server.call, ctx.token, ctx.wsId, line.match(/started execution (\S+)/)![1], 30_000);
    const next = "c".repeat(40);
    fake.setCheckRuns(ctx.repo, next, [{ name: "unit tests", status: "completed", conclusion: "failure" }]);
    pull.head_sha = next;
    await followUpOf(
      ctx,
      (await send("pull_request", pullRequestPayload(fake.url, "synchronize", ctx.repo, ctx.installationId, pull))).deliveryId,
      /mergeability/,
    );
    const newer = await send("check_suite", suite(next));
    expect(await followUpOf(ctx, newer.deliveryId, /auto fix-checks/)).toMatch(/auto fix-checks: started execution \S+ for ccccccc/);
    expect(await runsOf(ctx, created.id)).toHaveLength(2);
  });

  it("opens the pull request when a run succeeds with commits on its branch (auto_open_pull_request)", async () => {
    const ctx = await connected({ auto_open_pull_request: true });
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Opened by itself", status: "in_progress" });
    expect((await runToEnd(ctx, created.id, "write auto.txt auto")).status).toBe("succeeded");
    const linked = await eventually(async () => {
      const task = await ctx.task(created.id);
      return task.pr_number ? task : undefined;
    }, 20_000);
    expect(linked).toMatchObject({ status: "in_review", pr_state: "open", pr_head_sha: linked.task_runs[0].commit_sha });
    expect(fake.pull(ctx.repo, linked.pr_number)).toMatchObject({ head: linked.branch, title: "Opened by itself" });
    expect(remoteHead(ctx.bare, linked.branch)).toBe(linked.pr_head_sha);
  });

  it("retries opening the pull request when GitHub fails, and shows the failure to owners until it is fixed", async () => {
    const ctx = await connected({ auto_open_pull_request: true });
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Opened on the retry", status: "in_progress" });
    fake.failNext(`POST /repos/${ctx.repo}/pulls`, 502);
    expect((await runToEnd(ctx, created.id, "write retry.txt retry")).status).toBe("succeeded");
    // The github-after-run reaction failed once: it says so, and its next attempt opens the pull request.
    const linked = await eventually(async () => {
      const task = await ctx.task(created.id);
      return task.pr_number ? task : undefined;
    }, 20_000);
    expect(fake.pull(ctx.repo, linked.pr_number)).toMatchObject({ head: linked.branch, title: "Opened on the retry" });
    const states = await reactionsCaughtUp(server.call, ctx.token, ctx.wsId);
    const afterRun = states.find((state) => state.name === "github-after-run")!;
    expect(afterRun.attempts).toBe(0);
    expect(afterRun.last_error).toMatch(/502|Server Error/);
  });
});
