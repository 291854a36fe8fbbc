import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubApp, type GithubApp } from "@/lib/github/client/app-client";
import { fetchChecks } from "@/lib/github/client/fetch-checks";
import { fetchMergeability } from "@/lib/github/client/fetch-mergeability";
import { gitRemoteAccess } from "@/lib/git/remote/github-remote";
import { openPullRequest } from "@/lib/github/client/open-pull-request";
import { githubAppSettings } from "@/lib/platform/github-app-settings";
import { startFakeGithub, type FakeGithub } from "@/tests/fixtures/fake-github/server";
import { runGit } from "@/lib/git/run-git";

const REPO = "acme/widgets";
const INSTALLATION = 41;
let github: FakeGithub;
let app: GithubApp;
const slept: number[] = [];
const fastSleep = async (ms: number) => void slept.push(ms);

beforeAll(async () => {
  github = await startFakeGithub();
  github.addInstallation(INSTALLATION, "acme", [REPO]);
  app = createGithubApp(githubAppSettings(github.env())!);
});
afterAll(() => github.close());

describe("fetchMergeability", () => {
  it("waits while mergeable is null, reports the conflict, then clean after a push to the base", async () => {
    const pull = github.addPull(REPO, {
      head: "tb/one",
      mergeability: [
        [null, "unknown"],
        [null, "unknown"],
        [false, "dirty"],
      ],
    });
    slept.length = 0;
    expect(await fetchMergeability(app, INSTALLATION, REPO, pull.number, { sleep: fastSleep })).toEqual({
      mergeable: false,
      mergeable_state: "dirty",
      has_merge_conflict: true,
      head_sha: pull.head_sha,
      state: "open",
    });
    expect(slept).toEqual([1_000, 2_000]);

    // GitHub recomputes after the push: null again, then clean.
    pull.mergeability = [
      [null, "unknown"],
      [true, "clean"],
    ];
    slept.length = 0;
    expect(await fetchMergeability(app, INSTALLATION, REPO, pull.number, { sleep: fastSleep })).toMatchObject({
      mergeable: true,
      mergeable_state: "clean",
      has_merge_conflict: false,
    });
    expect(slept).toEqual([1_000]);
  });

  it("gives up after the bounded attempts with mergeable null", async () => {
    const pull = github.addPull(REPO, { head: "tb/slow", mergeability: [[null, "unknown"]] });
    const before = github.requests.length;
    slept.length = 0;
    const result = await fetchMergeability(app, INSTALLATION, REPO, pull.number, { sleep: fastSleep, delaysMs: [10, 20, 40] });
    expect(result).toMatchObject({ mergeable: null, mergeable_state: "unknown", has_merge_conflict: false });
    expect(slept).toEqual([10, 20, 40]);
    expect(github.requests.length - before).toBe(4);
  });

  it("does not wait for a closed PR", async () => {
    const pull = github.addPull(REPO, { head: "tb/closed", state: "closed", mergeability: [[null, "unknown"]] });
    slept.length = 0;
    expect(await fetchMergeability(app, INSTALLATION, REPO, pull.number, { sleep: fastSleep })).toMatchObject({
      state: "closed",
      mergeable: null,
    });
    expect(slept).toEqual([]);
  });

  it("a repository outside the installation is GitHub's 404", async () => {
    await expect(fetchMergeability(app, INSTALLATION, "acme/secret", 1, { sleep: fastSleep })).rejects.toMatchObject({ status: 404 });
  });

  it("uses real delays by default (a blocked→clean answer needs none)", async () => {
    const pull = github.addPull(REPO, { head: "tb/blocked", mergeability: [[true, "blocked"]] });
    expect(await fetchMergeability(app, INSTALLATION, REPO, pull.number)).toMatchObject({
      mergeable: true,
      mergeable_state: "blocked",
      has_merge_conflict: false,
    });
  });
});

describe("fetchChecks", () => {
  it("aggregates every run of the commit", async () => {
    github.setCheckRuns(REPO, "abc123", [
      { name: "lint", status: "completed", conclusion: "success" },
      { name: "test", status: "completed", conclusion: "failure", title: "1 failed", summary: "board.test.ts" },
    ]);
    expect(await fetchChecks(app, INSTALLATION, REPO, "abc123")).toEqual({
      checks: "failure",
      failing: [{ name: "test", conclusion: "failure", title: "1 failed", summary: "board.test.ts" }],
    });
    expect(await fetchChecks(app, INSTALLATION, REPO, "no-runs")).toEqual({ checks: null, failing: [] });
  });
});

describe("from an agent branch to a pull request", () => {
  it("clones and pushes with the installation token (never stored), then opens the PR", async () => {
    github.createRepository(REPO);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "gh-clone-"));
    const access = await gitRemoteAccess(app, INSTALLATION, REPO);
    const { token } = await app.installationToken(INSTALLATION);
    expect(access.url).toBe(`${github.url}/${REPO}.git`);
    expect(JSON.stringify(access)).not.toContain(token);

    // Asynchronous: the fake answers git from this same process.
    const git = async (cwd: string, env: Record<string, string>, ...args: string[]) =>
      (
        await promisify(execFile)("git", ["-c", "user.name=Agent", "-c", "user.email=agent@example.com", ...args], {
          cwd,
          env: { ...process.env, ...env },
        })
      ).stdout;

    // Without the token GitHub refuses (and git does not prompt).
    await expect(git(work, { GIT_TERMINAL_PROMPT: "0" }, "clone", "--quiet", access.url, "refused")).rejects.toThrow(
      /could not read Username|Authentication failed/,
    );

    // Through the board's own git: the token reaches git only as a private file for the one command.
    await runGit(null, ["clone", "--quiet", access.url, "repo"], { cwd: work, access: access.access });
    const checkout = path.join(work, "repo");
    await git(checkout, {}, "switch", "--quiet", "-c", "tb/12-login-page");
    fs.writeFileSync(path.join(checkout, "login.txt"), "the login page\n");
    await git(checkout, {}, "add", ".");
    await git(checkout, {}, "commit", "--quiet", "-m", "Login page");
    await runGit({ cloneDir: checkout }, ["push", "--quiet", "origin", "tb/12-login-page"], { access: access.access });
    const sha = (await git(checkout, {}, "rev-parse", "HEAD")).trim();
    expect(fs.readFileSync(path.join(checkout, ".git", "config"), "utf8")).not.toContain(token);

    const opened = await openPullRequest(app, INSTALLATION, REPO, {
      head: "tb/12-login-page",
      base: "main",
      title: "Login page",
      body: "Report of the run.\n\nTask: #tb-12",
    });
    expect(opened).toEqual({
      number: expect.any(Number),
      html_url: `${github.url}/${REPO}/pull/${opened.number}`,
      head_sha: sha,
      draft: false,
      created: true,
    });
    expect(github.pull(REPO, opened.number)).toMatchObject({
      head: "tb/12-login-page",
      base: "main",
      title: "Login page",
      body: "Report of the run.\n\nTask: #tb-12",
    });

    // A second PR for the same branch is GitHub's 422 "already exists": the open one is found and returned.
    expect(await openPullRequest(app, INSTALLATION, REPO, { head: "tb/12-login-page", base: "main", title: "again", body: "" })).toEqual({
      ...opened,
      created: false,
    });
    expect(github.requests.at(-1)).toMatchObject({ method: "GET", path: expect.stringContaining("head=acme%3Atb%2F12-login-page") });
    // An unpushed branch is GitHub's 422 too, and stays an error.
    await expect(
      openPullRequest(app, INSTALLATION, REPO, { head: "tb/never-pushed", base: "main", title: "x", body: "" }),
    ).rejects.toMatchObject({
      status: 422,
    });
    fs.rmSync(work, { recursive: true, force: true });
  });
});
