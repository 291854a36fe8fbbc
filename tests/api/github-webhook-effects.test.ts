import { beforeAll, describe, expect, it } from "vitest";
import { type EngineServer, eventually, newTask, workspaceOn } from "../helpers/engine";
import { githubWebhookServer } from "../helpers/github-webhooks";
import type { FakeGithub } from "../fixtures/fake-github/server";
import { examplePayload, pullRequestPayload } from "../fixtures/fake-github/webhooks";
import { heardOf } from "../helpers/notifications";

// What GitHub's deliveries do to the board, against a server whose GitHub is the fake: payloads from
// @octokit/webhooks-examples, mergeability and check runs read back from the fake's REST endpoints with
// the App's installation token. The endpoint itself (signatures, limits) is in github-webhooks.test.ts.

const github = githubWebhookServer("github-webhook-effects");
const { connected, send, newInstallationId } = github;
let fake: FakeGithub;
let server: EngineServer;

beforeAll(() => {
  ({ fake, server } = github.started);
});

describe("POST /api/webhooks/github", () => {
  it("links a pull request by the task id in its body, then by its pr_url, and moves the task to done when merged", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const created = await newTask(server.call, token, wsId, { title: "by id", status: "in_review" });
    const pull = fake.addPull(repo, { head: "tb/by-id", body: `Implements ${created.id.toUpperCase()}` });

    const opened = await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, pull));
    expect(opened.response.status).toBe(202);
    const linked = await task(created.id);
    expect(linked).toMatchObject({
      pr_url: `${fake.url}/${repo}/pull/${pull.number}`,
      pr_number: pull.number,
      pr_state: "open",
      pr_head_sha: pull.head_sha,
      status: "in_review",
    });

    // The merge's payload no longer mentions the task: the recorded pr_url links it.
    Object.assign(pull, { body: "Squashed", state: "closed", merged: true });
    const merged = await send("pull_request", pullRequestPayload(fake.url, "closed", repo, installationId, pull));
    expect(merged.response.status).toBe(202);
    const done = await task(created.id);
    expect(done).toMatchObject({ pr_state: "merged", status: "done" });
    expect(done.done_at).not.toBeNull();
    const column = await server.call("GET", `/api/workspaces/${wsId}/board/column/done`, { token });
    expect(column.body.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    // The task has no assignee: its workspace's owner hears of the merge (docs/notifications.md).
    await heardOf(server, token, `Pull request #${pull.number} merged: "by id"`);
  });

  it("links by the task's branch (the PR's head ref), then by a #tb-<number> mention", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const byBranch = await newTask(server.call, token, wsId, { title: "by branch" });
    const patched = await server.call("PATCH", `/api/workspaces/${wsId}/tasks/${byBranch.id}`, {
      token,
      json: { branch: "feature/login" },
    });
    expect(patched.status).toBe(200);
    const branchPull = fake.addPull(repo, { head: "feature/login", title: "Login" });
    expect((await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, branchPull))).response.status).toBe(
      202,
    );
    expect(await task(byBranch.id)).toMatchObject({ pr_number: branchPull.number, pr_state: "open" });

    const byNumber = await newTask(server.call, token, wsId, { title: "by number" });
    const { number } = await task(byNumber.id);
    const mentionPull = fake.addPull(repo, { head: "elsewhere", title: `Fixes #tb-${number}` });
    expect((await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, mentionPull))).response.status).toBe(
      202,
    );
    expect(await task(byNumber.id)).toMatchObject({
      pr_number: mentionPull.number,
      pr_url: `${fake.url}/${repo}/pull/${mentionPull.number}`,
      // A task without a branch takes the PR's head branch (same repository), for fix-conflicts.
      branch: "elsewhere",
    });
    // The branch rule did not also catch the mention's PR.
    expect((await task(byBranch.id)).pr_number).toBe(branchPull.number);
  });

  it("links by an existing pr_url and answers a redelivery with 200, changing nothing", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const pull = fake.addPull(repo, { head: "feature", title: "No mention at all" });
    const created = await newTask(server.call, token, wsId, { title: "by url", pr_url: `${fake.url}/${repo}/pull/${pull.number}` });

    const opened = await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, pull));
    expect(opened.response.status).toBe(202);
    expect(await task(created.id)).toMatchObject({ pr_number: pull.number, pr_state: "open" });

    pull.draft = true;
    const drafted = await send("pull_request", pullRequestPayload(fake.url, "converted_to_draft", repo, installationId, pull));
    expect(drafted.response.status).toBe(202);
    const before = await task(created.id);
    expect(before.pr_state).toBe("draft");

    const again = await send("pull_request", JSON.parse(opened.body), { deliveryId: opened.deliveryId });
    expect(again.response.status).toBe(200);
    expect(await again.response.json()).toEqual({ delivery_id: opened.deliveryId, status: "duplicate" });
    expect(await task(created.id)).toEqual(before);
  });

  it("does not move a merged PR's task to done in a workspace of another repository", async () => {
    const mine = await connected();
    const other = await connected();
    const created = await newTask(server.call, other.token, other.wsId, { title: "elsewhere" });
    const pull = fake.addPull(mine.repo, { head: "x", body: created.id, state: "closed", merged: true });
    const merged = await send("pull_request", pullRequestPayload(fake.url, "closed", mine.repo, mine.installationId, pull));
    expect(merged.response.status).toBe(202);
    expect(await other.task(created.id)).toMatchObject({ pr_number: null, pr_state: null, status: "todo" });
  });

  it("answers at once while GitHub computes mergeability, then marks the conflict, and clears it after a push to the base", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const created = await newTask(server.call, token, wsId, { title: "conflicts" });
    const pull = fake.addPull(repo, { head: "feature", body: created.id });
    pull.mergeability = [
      [null, "unknown"],
      [false, "dirty"],
    ];

    const started = Date.now();
    const opened = await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, pull));
    expect(opened.response.status).toBe(202);
    // The fake answers null first, so the mergeability check alone takes more than its first 1 s back-off.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await task(created.id)).has_merge_conflict).toBe(false);
    await eventually(async () => ((await task(created.id)).has_merge_conflict ? true : undefined), 15_000, "the conflict");

    pull.mergeability = [
      [null, "unknown"],
      [true, "clean"],
    ];
    const push = examplePayload("push");
    push.ref = "refs/heads/main";
    push.deleted = false;
    push.installation = { id: installationId, node_id: "x" };
    push.repository.full_name = repo;
    push.repository.default_branch = "main";
    const pushed = await send("push", push);
    expect(pushed.response.status).toBe(202);
    await eventually(async () => ((await task(created.id)).has_merge_conflict ? undefined : true), 15_000, "the conflict to clear");
  });

  it("sets checks from all check runs of the head commit on check_suite", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const created = await newTask(server.call, token, wsId, { title: "checks" });
    const pull = fake.addPull(repo, { head: "feature", body: created.id });
    await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, pull));
    expect((await task(created.id)).checks).toBeNull();

    // The suite that completed passed, but another run of the commit failed: the verdict is failure.
    fake.setCheckRuns(repo, pull.head_sha, [
      { name: "lint", status: "completed", conclusion: "success" },
      { name: "test", status: "completed", conclusion: "failure", title: "2 failed" },
    ]);
    const suite = examplePayload("check_suite", "completed");
    suite.installation = { id: installationId, node_id: "x" };
    suite.repository.full_name = repo;
    Object.assign(suite.check_suite, { head_sha: pull.head_sha, status: "completed", conclusion: "success", pull_requests: [] });
    expect((await send("check_suite", suite)).response.status).toBe(202);
    await eventually(async () => ((await task(created.id)).checks === "failure" ? true : undefined), 15_000, "checks: failure");
    await heardOf(server, token, `Checks failed on pull request #${pull.number}: "checks"`);

    fake.setCheckRuns(repo, pull.head_sha, [
      { name: "lint", status: "completed", conclusion: "success" },
      { name: "test", status: "in_progress", conclusion: null },
    ]);
    const run = examplePayload("check_run", "created");
    run.installation = { id: installationId, node_id: "x" };
    run.repository.full_name = repo;
    Object.assign(run.check_run, { head_sha: pull.head_sha, status: "in_progress", conclusion: null, pull_requests: [] });
    expect((await send("check_run", run)).response.status).toBe(202);
    await eventually(async () => ((await task(created.id)).checks === "pending" ? true : undefined), 15_000, "checks: pending");
  });

  it("sends each change a delivery makes to open boards as task.updated", async () => {
    const { repo, installationId, wsId, token } = await connected();
    const created = await newTask(server.call, token, wsId, { title: "live" });
    const pull = fake.addPull(repo, { head: "live", body: created.id });
    pull.mergeability = [[false, "dirty"]];
    const abort = new AbortController();
    const stream = await fetch(`${server.url}/api/workspaces/${wsId}/events`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    type Seen = { id: string; pr_state: string | null; has_merge_conflict: boolean };
    const events: Array<{ task_id: string; actor: { type: string }; data: Seen }> = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = frame.match(/^event: task\.updated\ndata: (.*)$/m)?.[1];
          if (data) events.push(JSON.parse(data));
        }
      }
    })().catch(() => undefined);

    await send("pull_request", pullRequestPayload(fake.url, "opened", repo, installationId, pull));
    const mine = () => events.filter((event) => event.task_id === created.id);
    await eventually(async () => (mine().some((event) => event.data.has_merge_conflict) ? true : undefined));
    // First the link (before the answer), then the conflict GitHub computed after it; both the server's own doing.
    expect(mine().map((event) => [event.data.pr_state, event.data.has_merge_conflict])).toEqual([
      ["open", false],
      ["open", true],
    ]);
    expect(mine().map((event) => event.actor.type)).toEqual(["system", "system"]);
    abort.abort();
    await reading;
  });

  it("leaves a merged PR's task where it is when the workspace turns merged_to_done off", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const settings = `/api/workspaces/${wsId}/codehost/github/settings`;
    const automations = { auto_open_pull_request: false, auto_fix_conflicts: false, auto_fix_checks: false };
    expect((await server.call("GET", settings, { token })).body).toEqual({ merged_to_done: true, ...automations });
    const off = await server.call("PATCH", settings, { token, json: { merged_to_done: false } });
    expect(off.body).toEqual({ merged_to_done: false, ...automations });
    expect((await server.call("PATCH", settings, { token, json: { merged_to_done: "no" } })).status).toBe(422);

    const created = await newTask(server.call, token, wsId, { title: "stays" });
    const pull = fake.addPull(repo, { head: "x", body: created.id, state: "closed", merged: true });
    expect((await send("pull_request", pullRequestPayload(fake.url, "closed", repo, installationId, pull))).response.status).toBe(202);
    expect(await task(created.id)).toMatchObject({ pr_state: "merged", status: "todo", done_at: null });
  });

  it("lists the workspace's deliveries for its owner, with the error of one whose GitHub calls failed", async () => {
    const { token, wsId } = await workspaceOn(server);
    // An installation the fake GitHub does not know: the board's own writes work, the calls to GitHub fail.
    const installationId = newInstallationId();
    const repo = `acme/ghost-${installationId}`;
    await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { installation_id: installationId, repo } });
    const created = await newTask(server.call, token, wsId, { title: "ghost" });
    const pull = fake.addPull(repo, { head: "x", body: created.id });
    const payload = pullRequestPayload(fake.url, "opened", repo, 0, pull);
    delete payload.installation;
    const sent = await send("pull_request", payload);
    expect(sent.response.status).toBe(202);

    const deliveries = `/api/workspaces/${wsId}/codehost/github/deliveries?limit=1`;
    const failed = await eventually(async () => {
      const page = await server.call("GET", deliveries, { token });
      return page.body.items[0]?.error ? page.body.items[0] : undefined;
    });
    expect(failed).toMatchObject({ delivery_id: sent.deliveryId, event: "pull_request", action: "opened" });
    expect(failed.result).toBe(`task ${created.id}: #${pull.number} open`);
    expect(failed.error).toMatch(/\S/);
    expect((await server.call("GET", `/api/workspaces/${wsId}/codehost/github/deliveries?limit=0`, { token })).status).toBe(422);
  });

  it("shows the workspace as disconnected, with the reason, when the App is uninstalled", async () => {
    const { installationId, wsId, token } = await connected();
    const payload = examplePayload("installation", "deleted");
    payload.installation.id = installationId;
    const delivery = await send("installation", payload);
    expect(delivery.response.status).toBe(202);
    const status = await server.call("GET", `/api/workspaces/${wsId}/codehost/status`, { token });
    expect(status.body).toEqual({
      connected: false,
      installation_id: null,
      repo: null,
      app_configured: true,
      oauth_configured: true,
      reason: `The GitHub App was uninstalled by ${payload.sender.login}`,
    });

    // Connecting again clears the reason.
    const put = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { installation_id: 1, repo: "acme/again" } });
    expect(put.body).toEqual({ connected: true, installation_id: 1, repo: "acme/again", app_configured: true, oauth_configured: true });
  });

  it("disconnects only the workspace whose repository the installation lost", async () => {
    const { installationId, repo, wsId, token } = await connected();
    const payload = examplePayload("installation_repositories", "removed");
    payload.installation.id = installationId;
    payload.repositories_removed = [{ id: 1, node_id: "x", name: repo.split("/")[1], full_name: repo.toUpperCase(), private: true }];
    payload.repositories_added = [];
    expect((await send("installation_repositories", payload)).response.status).toBe(202);
    const status = await server.call("GET", `/api/workspaces/${wsId}/codehost/status`, { token });
    expect(status.body).toMatchObject({
      connected: false,
      reason: `${repo.toUpperCase()} was removed from the GitHub App by ${payload.sender.login}`,
    });
  });
});
