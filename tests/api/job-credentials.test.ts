import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGithub, type FakeGithub } from "../fixtures/fake-github/server";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// A job's repository credential (docs/runners.md, "Job credentials"): for a workspace connected to
// GitHub, the installation token a runner gets works for the workspace's repository only (git and
// API), can read and push its contents and nothing more, and a fresh one is handed out only while
// the run lasts; each job's token is its own, revoked at GitHub once the run ends. The fake GitHub
// refuses a token outside its scope, and a revoked one, as GitHub does.

let fake: FakeGithub;
let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
let runnerToken: string;

beforeAll(async () => {
  fake = await startFakeGithub();
  store = await newStore("job-credentials");
  server = await engineServer(store, { ...fake.env(), RUNNER_EMBEDDED: "false" }, "job-credentials");
  ({ token, wsId } = await workspaceOn(server));
  fake.addInstallation(7100, "acme", ["acme/app", "acme/other"]);
  fake.createRepository("acme/app");
  fake.createRepository("acme/other");
  const put = await server.call("PUT", `/api/workspaces/${wsId}/codehost`, { token, json: { installation_id: 7100, repo: "acme/app" } });
  expect(put.status).toBe(200);
  const registered = await server.call("POST", "/api/runners", { token, json: { name: "credentials" } });
  runnerToken = registered.body.token;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await fake?.close();
});

async function protocol(method: string, path: string, json?: unknown) {
  const response = await fetch(`${server.url}/api/runner${path}`, {
    method,
    headers: { authorization: `Bearer ${runnerToken}`, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The installation token inside a job's access (git's Basic header for the GitHub host). */
function tokenOf(access: { secretConfig: [string, string][] }): string {
  const header = access.secretConfig.find(([key]) => key.endsWith(".extraHeader"))![1];
  return Buffer.from(header.replace(/^Authorization: Basic /, ""), "base64")
    .toString()
    .split(":")[1];
}

/** git ls-remote with the token, as the runner's git sends it; asynchronous, since the fake GitHub answers from this process. */
async function lsRemote(repo: string, installationToken: string): Promise<boolean> {
  const basic = Buffer.from(`x-access-token:${installationToken}`).toString("base64");
  try {
    await promisify(execFile)("git", ["-c", `http.extraHeader=Authorization: Basic ${basic}`, "ls-remote", `${fake.url}/${repo}.git`], {
      timeout: 20_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    });
    return true;
  } catch {
    return false;
  }
}

const github = (path: string, installationToken: string) =>
  fetch(`${fake.url}${path}`, { headers: { authorization: `token ${installationToken}` } }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));

/** Starts a run and claims it: the job. */
async function claimedJob(title: string) {
  const task = await newTask(server.call, token, wsId, { title });
  const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: { instructions: "x" } });
  expect(started.status).toBe(202);
  const claimed = await protocol("POST", "/claim", { version: "test", sandbox: "bubblewrap", free: 1, wait_seconds: 10 });
  expect(claimed.status).toBe(200);
  expect(claimed.body.job.execution_id).toBe(started.body.id);
  return claimed.body.job;
}

/** Until GitHub answers 401 for the token (revoked after the run's end commits, by the server's revoker). */
async function untilRevoked(installationToken: string) {
  await eventually(
    async () => ((await github("/repos/acme/app", installationToken)).status === 401 ? true : undefined),
    15_000,
    "the token revoked",
  );
}

describe("a job's GitHub credential", () => {
  it("works for the workspace's repository only, for its contents only, and only while the run lasts", async () => {
    const task = await newTask(server.call, token, wsId, { title: "scoped" });
    const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: { instructions: "x" } });
    expect(started.status).toBe(202);
    const claimed = await protocol("POST", "/claim", { version: "test", sandbox: "bubblewrap", free: 1, wait_seconds: 10 });
    expect(claimed.status).toBe(200);
    const job = claimed.body.job;
    expect(job.repository).toMatchObject({ url: `${fake.url}/acme/app.git` });
    const scoped = tokenOf(job.repository.access);

    expect(await lsRemote("acme/app", scoped)).toBe(true);
    expect(await lsRemote("acme/other", scoped)).toBe(false);
    expect((await github("/repos/acme/app", scoped)).status).toBe(200);
    expect((await github("/repos/acme/other", scoped)).status).toBe(404);
    expect((await github("/repos/acme/app/pulls", scoped)).status).toBe(403);
    const seen = await github("/installation/repositories", scoped);
    expect(seen.body.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(["acme/app"]);

    const renewed = await protocol("POST", `/executions/${job.execution_id}/remote`, { fresh: true });
    expect(renewed.status).toBe(200);
    const fresh = tokenOf(renewed.body.access);
    expect(fresh).not.toBe(scoped);
    expect(await lsRemote("acme/app", fresh)).toBe(true);
    expect(await lsRemote("acme/other", fresh)).toBe(false);

    // Without `fresh`, the run's newest token again: a token is minted per job, not per call.
    const again = await protocol("POST", `/executions/${job.execution_id}/remote`, {});
    expect(tokenOf(again.body.access)).toBe(fresh);

    expect((await protocol("POST", `/executions/${job.execution_id}/finish`, { status: "succeeded" })).status).toBe(204);
    expect((await protocol("POST", `/executions/${job.execution_id}/remote`, { fresh: true })).status).toBe(409);
    // The run ended: every token its job carried is revoked at GitHub (DELETE /installation/token).
    await untilRevoked(scoped);
    await untilRevoked(fresh);
    expect(await lsRemote("acme/app", scoped)).toBe(false);
  });

  it("mints each job a token of its own, and revokes it when the run is cancelled", async () => {
    const first = await claimedJob("first");
    const second = await claimedJob("second");
    const [one, two] = [tokenOf(first.repository.access), tokenOf(second.repository.access)];
    expect(one).not.toBe(two);
    // The cancel is recorded at once; its answer waits for the runner to report the agent stopped.
    const cancelling = server.call("POST", `/api/workspaces/${wsId}/executions/${first.execution_id}/cancel`, { token });
    await untilRevoked(one);
    expect((await protocol("POST", `/executions/${first.execution_id}/finish`, { status: "cancelled" })).status).toBe(204);
    expect((await cancelling).status).toBe(200);
    // The other run's token is its own: it still works.
    expect((await github("/repos/acme/app", two)).status).toBe(200);
    expect((await protocol("POST", `/executions/${second.execution_id}/finish`, { status: "failed" })).status).toBe(204);
    await untilRevoked(two);
  });

  it("leaves the server's own uses of the installation unlimited", async () => {
    // Listing the installation's repositories goes through the server's own (unscoped) token: it sees both.
    const repos = await server.call("GET", `/api/workspaces/${wsId}/codehost/github/repositories`, { token });
    expect(repos.status).toBe(200);
    expect(repos.body.items.map((r: { full_name: string }) => r.full_name).sort()).toEqual(["acme/app", "acme/other"]);
  });
});
