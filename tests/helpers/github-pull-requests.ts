import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { startFakeGithub, type FakeGithub } from "../fixtures/fake-github/server";
import { sendWebhook } from "../fixtures/fake-github/webhooks";
import { engineServer, eventually, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "./engine";

// The set-up of the pull-request tests (tests/api/github-pull-request*.test.ts): a server of the file's
// own whose GitHub is the fake (REST, and git over smart HTTP with installation tokens, backed by a real
// bare repository) and whose agent is tests/fixtures/git-agent.mjs (it writes the file its instructions name).

export const GIT_AGENT = `${process.execPath} ${path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")}`;

const SECRET = "pull-request-test-secret";

/**
 * Starts the fake GitHub and a server using it before the file's tests, stops both after; the
 * helpers act on them. `env` adds to the server's environment (RUNNER_EMBEDDED=false: runs go to
 * runners the test starts).
 */
export function githubPullRequestServer(label: string, env: Record<string, string> = {}) {
  let fake: FakeGithub;
  let store: Store;
  let server: EngineServer;
  let nextInstallation = 9500;

  beforeAll(async () => {
    fake = await startFakeGithub();
    store = await newStore(label);
    server = await engineServer(
      store,
      { ...fake.env(SECRET), AGENT_COMMAND: GIT_AGENT, AGENT_LOG_FLUSH_MS: "100", REACTION_RETRY_BASE_SECONDS: "0.5", ...env },
      label,
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

  return {
    started: () => ({ fake, store, server }),
    connected,
    withBranch,
    runToEnd,
    send,
    followUpOf,
    runsOf,
    runsCount,
  };
}

/** Commits `files` on `branch` (made from main when new) of the bare repository, as someone pushing to GitHub. */
export function pushToRemote(bare: string, branch: string, files: Record<string, string>): string {
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

export function remoteHead(bare: string, branch: string): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--verify", `refs/heads/${branch}`], { cwd: bare, stdio: "pipe" })
      .toString()
      .trim();
  } catch {
    return null;
  }
}
