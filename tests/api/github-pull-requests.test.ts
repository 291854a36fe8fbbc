import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, newTask, workspaceOn, type Store, type EngineServer } from "../helpers/engine";
import { githubPullRequestServer, pushToRemote, remoteHead } from "../helpers/github-pull-requests";
import type { FakeGithub } from "../fixtures/fake-github/server";
import { pullRequestPayload } from "../fixtures/fake-github/webhooks";

// From an agent's branch to a pull request, and the automations on a linked pull request, against a
// server whose GitHub is the fake (REST, and git over smart HTTP with installation tokens, backed by a
// real bare repository). Runs are real: the connected repository becomes the workspace's repository,
// a run clones it with the installation token into the server's clone, works in the task's worktree
// on tb/<N>-<slug> (tests/fixtures/git-agent.mjs writes the file its instructions name) and the board
// commits the work there.
// The automations on a linked pull request are in github-pull-request-automations.test.ts.

const github = githubPullRequestServer("github-prs");
const { connected, withBranch, runToEnd, send, followUpOf } = github;
let fake: FakeGithub;
let store: Store;
let server: EngineServer;

beforeAll(() => {
  ({ fake, store, server } = github.started());
});

describe("POST /api/workspaces/{id}/tasks/{task_id}/pull-request", () => {
  it("pushes the agent's branch, opens the pull request with the task's title and the run's report, links the task and moves it to in_review", async () => {
    const ctx = await connected();
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Login page", status: "in_progress" });
    const run = await runToEnd(ctx, created.id, "write login.txt the login page");
    expect(run.status).toBe("succeeded");
    const { branch, number: taskNumber, task_runs } = await ctx.task(created.id);
    expect(branch).toBe(`tb/${taskNumber}-login-page`);
    const sha = task_runs[0].commit_sha as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    // A run does not push: the branch reaches GitHub with the pull request.
    expect(remoteHead(ctx.bare, branch)).toBeNull();

    const opened = await ctx.openPr(created.id);
    expect(opened.status).toBe(201);
    const number = opened.body.pr_number as number;
    expect(opened.body).toMatchObject({
      id: created.id,
      status: "in_review",
      pr_url: `${fake.url}/${ctx.repo}/pull/${number}`,
      pr_state: "open",
      pr_head_sha: sha,
      checks: null,
    });
    expect(await ctx.task(created.id)).toMatchObject({ status: "in_review", pr_number: number, pr_head_sha: sha });
    // Pushed with the installation token, which stayed out of the clone's configuration.
    expect(remoteHead(ctx.bare, branch)).toBe(sha);
    const config = fs.readFileSync(path.join(store.dataDir, "repos", ctx.wsId, ".git", "config"), "utf8");
    expect(config).not.toMatch(/ghs_|extraheader|authorization/i);
    const pull = fake.pull(ctx.repo, number)!;
    expect(pull).toMatchObject({ head: branch, base: "main", title: "Login page", state: "open", draft: false });
    expect(pull.body).toContain("wrote login.txt");
    expect(pull.body).toContain(`Task #tb-${taskNumber}: `);
    expect(pull.body).toContain(`/w/${ctx.wsId}?task=${created.id}`);

    const again = await ctx.openPr(created.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`The task already has an open pull request: ${fake.url}/${ctx.repo}/pull/${number}`);
  });

  it("pushes the commit the task's run recorded, never one another task's agent pointed the branch at (issue #35)", async () => {
    const ctx = await connected();
    const reviewed = await newTask(server.call, ctx.token, ctx.wsId, { title: "Reviewed work", status: "in_progress" });
    expect((await runToEnd(ctx, reviewed.id, "write reviewed.txt yes")).status).toBe("succeeded");
    const { branch, task_runs } = await ctx.task(reviewed.id);
    const sha = task_runs[0].commit_sha as string;
    const other = await newTask(server.call, ctx.token, ctx.wsId, { title: "Other work", status: "in_progress" });
    const hijack = await runToEnd(ctx, other.id, `hijack ${branch}`);
    expect(hijack.status).toBe("succeeded");
    // The agent did move a ref named like the branch: in its own repository, which nothing pushes.
    const moved = new RegExp(`moved ${branch} to ([0-9a-f]{40})`).exec(String(hijack.report))?.[1];
    expect(moved).toMatch(/^[0-9a-f]{40}$/);
    expect(moved).not.toBe(sha);

    expect((await ctx.openPr(reviewed.id)).status).toBe(201);
    expect(remoteHead(ctx.bare, branch)).toBe(sha);
  });

  it("links the pull request GitHub already has for the branch instead of opening a second one", async () => {
    const ctx = await connected();
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Already proposed", status: "in_progress" });
    expect((await runToEnd(ctx, created.id, "write a.txt a")).status).toBe("succeeded");
    const { branch } = await ctx.task(created.id);
    const existing = fake.addPull(ctx.repo, { head: branch, title: "Made on GitHub" });

    const linked = await ctx.openPr(created.id, { draft: true });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      pr_number: existing.number,
      pr_url: `${fake.url}/${ctx.repo}/pull/${existing.number}`,
      status: "in_review",
    });
    expect(fake.pull(ctx.repo, existing.number)!.title).toBe("Made on GitHub");
  });

  it("goes on with a fresh installation token when the one the server holds expires during a run", async () => {
    const ctx = await connected();
    const created = await newTask(server.call, ctx.token, ctx.wsId, { title: "Token expires", status: "in_progress" });
    expect((await runToEnd(ctx, created.id, "write first.txt 1")).status).toBe("succeeded");
    expect((await ctx.openPr(created.id)).status).toBe(201);
    const minted = fake.tokensIssued(ctx.installationId);
    // The token the server holds (GitHub's last an hour) stops working, as one revoked or expired
    // early does. The next run's fetch is refused once and made with a new token; its commits then
    // go to the open pull request, pushed when it succeeds.
    fake.expireTokens(ctx.installationId);
    const second = await runToEnd(ctx, created.id, "write second.txt 2");
    expect(second.status).toBe("succeeded");
    const { branch, task_runs } = await ctx.task(created.id);
    const sha = task_runs[0].commit_sha as string;
    await eventually(async () => (remoteHead(ctx.bare, branch) === sha ? true : undefined), 20_000, "the push with a fresh token");
    expect(fake.tokensIssued(ctx.installationId)).toBeGreaterThan(minted);
    const refused = fake.requests.filter((request) => request.path.startsWith(`/${ctx.repo}.git/`) && request.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    const config = fs.readFileSync(path.join(store.dataDir, "repos", ctx.wsId, ".git", "config"), "utf8");
    expect(config).not.toMatch(/ghs_|extraheader|authorization/i);
  });

  it("refuses with 409 in words: no GitHub repository, no branch, nothing beyond the base", async () => {
    const plain = await workspaceOn(server);
    const lonely = await newTask(server.call, plain.token, plain.wsId, { title: "no github" });
    const unconnected = await server.call("POST", `/api/workspaces/${plain.wsId}/tasks/${lonely.id}/pull-request`, { token: plain.token });
    expect(unconnected.status).toBe(409);
    expect(unconnected.body.detail).toMatch(/No GitHub repository is connected/);

    const ctx = await connected();
    const branchless = await newTask(server.call, ctx.token, ctx.wsId, { title: "no branch" });
    const noBranch = await ctx.openPr(branchless.id);
    expect(noBranch.status).toBe(409);
    expect(noBranch.body.detail).toMatch(/no branch yet/);

    const created = await withBranch(ctx, "empty", "tb/4-empty");
    const noClone = await ctx.openPr(created.id);
    expect(noClone.status).toBe(409);
    expect(noClone.body.detail).toMatch(/tb\/4-empty has no commits/);
    // A run that changed nothing leaves the branch at the base's own commit: nothing to propose.
    expect((await runToEnd(ctx, created.id, "nothing")).status).toBe("succeeded");
    const empty = await ctx.openPr(created.id);
    expect(empty.status).toBe(409);
    expect(empty.body.detail).toBe("The branch tb/4-empty has no commits beyond main: there is nothing to propose");
    expect((await ctx.task(created.id)).status).toBe("in_progress");
  });

  it("answers 401 without or with a wrong credential, 404 outside the caller's workspaces, 404 for an unknown task, 422 for a bad body", async () => {
    const ctx = await connected();
    const created = await withBranch(ctx, "guarded", "tb/5-guarded");
    const url = `/api/workspaces/${ctx.wsId}/tasks/${created.id}/pull-request`;
    expect((await server.call("POST", url)).status).toBe(401);
    expect((await server.call("POST", url, { token: "tb_not-a-real-token" })).status).toBe(401);
    const stranger = await server.call("POST", "/api/users", {
      token: ctx.token,
      json: { username: `pr-${Date.now()}`, password: "stranger-pass" },
    });
    expect(stranger.status).toBe(201);
    const login = await server.call("POST", "/api/auth/login", { json: { username: stranger.body.username, password: "stranger-pass" } });
    expect((await server.call("POST", url, { token: login.body.access_token })).status).toBe(404);
    const unknown = await server.call("POST", `/api/workspaces/${ctx.wsId}/tasks/0190b8f0-0000-7000-8000-00000000dead/pull-request`, {
      token: ctx.token,
    });
    expect(unknown.status).toBe(404);
    for (const json of [{ draft: "yes" }, [], "draft"]) {
      const invalid = await ctx.openPr(created.id, json);
      expect(invalid.status).toBe(422);
      expect(Array.isArray(invalid.body.detail)).toBe(true);
    }
  });
});

describe("what the board pushes", () => {
  // Only the task's own branch: tb/<number>-… or the head branch of the pull request GitHub linked
  // to it. The fix-conflicts paths are in tests/api/worktrees.test.ts; the linked head branch that is
  // not tb/<number>-… is pushed in "starts fix-conflicts once per head commit" above.
  it("Open pull request refuses to push a branch that is not the task's own; the remote's stays as it was", async () => {
    const ctx = await connected();
    const before = pushToRemote(ctx.bare, "release/x", { "release.txt": "release\n" });
    const created = await withBranch(ctx, "Taken over", "release/x");
    const { number } = await ctx.task(created.id);
    expect((await runToEnd(ctx, created.id, "write taken.txt taken")).status).toBe("succeeded");

    const refused = await ctx.openPr(created.id);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        detail: `release/x is not the task's own branch (tb/${number}-…, or the head branch of the pull request GitHub linked to it): the board does not push it`,
      },
    });
    expect(remoteHead(ctx.bare, "release/x")).toBe(before);
    expect(fake.requests.some((request) => request.method === "POST" && request.path.endsWith(`${ctx.repo}/pulls`))).toBe(false);
    expect((await ctx.task(created.id)).pr_url).toBeNull();
  });

  it("after a run, pushes the task's own branch to its open pull request but never another branch", async () => {
    const ctx = await connected();
    const before = pushToRemote(ctx.bare, "release/x", { "release.txt": "release\n" });
    // A task linked to its open pull request whose branch a person then pointed elsewhere.
    const diverted = await withBranch(ctx, "Diverted", "release/x");
    const { number } = await ctx.task(diverted.id);
    const pull = fake.addPull(ctx.repo, { head: `tb/${number}-diverted`, body: diverted.id });
    await followUpOf(
      ctx,
      (await send("pull_request", pullRequestPayload(fake.url, "opened", ctx.repo, ctx.installationId, pull))).deliveryId,
      /mergeability/,
    );
    expect(await ctx.task(diverted.id)).toMatchObject({ branch: "release/x", pr_state: "open" });
    expect((await runToEnd(ctx, diverted.id, "write diverted.txt diverted")).status).toBe("succeeded");

    // Another task on its own branch, with its own open pull request: its next run is pushed.
    const own = await newTask(server.call, ctx.token, ctx.wsId, { title: "Own branch", status: "in_progress" });
    expect((await runToEnd(ctx, own.id, "write own.txt own")).status).toBe("succeeded");
    expect((await ctx.openPr(own.id)).status).toBe(201);
    expect((await runToEnd(ctx, own.id, "write more.txt more")).status).toBe("succeeded");
    const { branch, task_runs } = await ctx.task(own.id);
    await eventually(async () => (remoteHead(ctx.bare, branch) === task_runs[0].commit_sha ? true : undefined), 20_000, "the push");

    expect(remoteHead(ctx.bare, "release/x")).toBe(before);
    expect(remoteHead(ctx.bare, `tb/${number}-diverted`)).toBeNull();
  });
});
