import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  newStore,
  newTask,
  reactionsCaughtUp,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";
import { examplePayload, pullRequestPayload, sendWebhook, startFakeGithub, type FakeGithub } from "../fixtures/fake-github";

// From an agent's branch to a pull request, and the automations on a linked pull request, against a
// server whose GitHub is the fake (REST, and git over smart HTTP with installation tokens, backed by a
// real bare repository). Runs are real: the connected repository becomes the workspace's repository,
// a run clones it with the installation token into the server's clone, works in the task's worktree
// on tb/<N>-<slug> (tests/fixtures/git-agent.mjs writes the file its instructions name) and the board
// commits the work there.

const GIT_AGENT = `${process.execPath} ${path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")}`;

const SECRET = "pull-request-test-secret";
let fake: FakeGithub;
let store: Store;
let server: EngineServer;
let nextInstallation = 9500;

beforeAll(async () => {
  fake = await startFakeGithub();
  store = await newStore("github-pull-requests");
  server = await engineServer(
    store,
    { ...fake.env(SECRET), AGENT_COMMAND: GIT_AGENT, AGENT_LOG_FLUSH_MS: "100", REACTION_RETRY_BASE_SECONDS: "0.5" },
    "github-prs",
  );
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await fake?.close();
});

/** A workspace connected to a repository of its own (a real bare repository behind the fake), through an installation of its own. */
async function connected(settings: Record<string, boolean> = {}) {
  const { token, wsId } = await workspaceOn(server);
  const installationId = nextInstallation++;
  const repo = `acme/app-${installationId}`;
  fake.addInstallation(installationId, "acme", [repo]);
  const bare = fake.createRepository(repo);
  const put = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { installation_id: installationId, repo } });
  expect(put.status).toBe(200);
  if (Object.keys(settings).length > 0) {
    const patched = await server.call("PATCH", `/api/workspaces/${wsId}/codehost/github/settings`, { token, json: settings });
    expect(patched.status).toBe(200);
  }
  const task = (id: string) => server.call("GET", `/api/workspaces/${wsId}/tasks/${id}`, { token }).then((r) => r.body);
  const openPr = (taskId: string, json?: unknown) =>
    server.call("POST", `/api/workspaces/${wsId}/tasks/${taskId}/pull-request`, { token, json });
  return { token, wsId, installationId, repo, bare, task, openPr };
}

/** Commits `files` on `branch` (made from main when new) of the bare repository, as someone pushing to GitHub. */
function pushToRemote(bare: string, branch: string, files: Record<string, string>): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pushed-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Octo", "-c", "user.email=octo@example.com", ...args], { cwd: work, stdio: "pipe" })
      .toString()
      .trim();
  git("clone", "--quiet", bare, ".");
  git("switch", "--quiet", ...(remoteHead(bare, branch) ? [branch] : ["-c", branch]));
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(work, file), content);
  git("add", "-A");
  git("commit", "--quiet", "-m", `Change ${Object.keys(files).join(", ")}`);
  git("push", "--quiet", "origin", branch);
  const sha = git("rev-parse", "HEAD");
  fs.rmSync(work, { recursive: true, force: true });
  return sha;
}

function remoteHead(bare: string, branch: string): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--verify", `refs/heads/${branch}`], { cwd: bare, stdio: "pipe" })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

async function withBranch(ctx: Awaited<ReturnType<typeof connected>>, title: string, branch: string) {
  const created = await newTask(server.call, ctx.token, ctx.wsId, { title, status: "in_progress" });
  const patched = await server.call("PATCH", `/api/workspaces/${ctx.wsId}/tasks/${created.id}`, { token: ctx.token, json: { branch } });
  expect(patched.status).toBe(200);
  return created;
}

async function runToEnd(ctx: { token: string; wsId: string }, taskId: string, instructions: string) {
  const started = await server.call("POST", `/api/workspaces/${ctx.wsId}/tasks/${taskId}/runs`, {
    token: ctx.token,
    json: { instructions },
  });
  expect(started.status).toBe(202);
  return finished(server.call, ctx.token, ctx.wsId, started.body.id, 30_000);
}

function send(event: string, payload: unknown) {
  return sendWebhook(`${server.url}/api/webhooks/github`, { event, payload, secret: SECRET });
}

/** The delivery's result once its follow-up (the calls to GitHub after the answer) has written its line. */
async function followUpOf(ctx: { token: string; wsId: string }, deliveryId: string, pattern: RegExp): Promise<string> {
  return eventually(
    async () => {
      const page = await server.call("GET", `/api/workspaces/${ctx.wsId}/codehost/github/deliveries?limit=50`, { token: ctx.token });
      const delivery = page.body.items.find((item: { delivery_id: string }) => item.delivery_id === deliveryId);
      if (delivery?.error) throw new Error(delivery.error);
      return delivery?.result && pattern.test(delivery.result) ? (delivery.result as string) : undefined;
    },
    20_000,
    `delivery ${deliveryId} to match ${pattern}`,
  );
}

async function runsOf(ctx: { token: string; wsId: string }, taskId: string) {
  return (await server.call("GET", `/api/workspaces/${ctx.wsId}/tasks/${taskId}/runs`, { token: ctx.token })).body as Array<{
    id: string;
    execution_id: string;
    trigger: string;
    status: string;
  }>;
}

/** The task's runs once there are `count` of them (a reaction starts them just after the change). */
function runsCount(ctx: { token: string; wsId: string }, taskId: string, count: number) {
  return eventually(
    async () => {
      const runs = await runsOf(ctx, taskId);
      return runs.length === count ? runs : undefined;
    },
    20_000,
    `${count} run(s) of task ${taskId}`,
  );
}

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
