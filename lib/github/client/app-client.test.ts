import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubApp, githubAppFromEnv, TOKEN_REFRESH_MARGIN_MS } from "@/lib/github/client/app-client";
import { installUrl } from "@/lib/github/client/install-url";
import { listInstallationRepositories } from "@/lib/github/client/list-installation-repositories";
import { appConfigured, githubAppSettings, githubWebhookSecret, webUrlOf } from "@/lib/platform/github-app-settings";
import { startFakeGithub, type FakeGithub } from "@/tests/fixtures/fake-github/server";

let github: FakeGithub;

beforeAll(async () => {
  github = await startFakeGithub();
  github.addInstallation(11, "acme", ["acme/widgets", "acme/gadgets"]);
});
afterAll(() => github.close());

function client(extra: Record<string, string> = {}, options = {}) {
  const settings = githubAppSettings({ ...github.env(), ...extra });
  if (!settings) throw new Error("fake settings did not parse");
  return createGithubApp(settings, options);
}

describe("settings", () => {
  it("is configured only with an App id and a private key that parses, from the variable or the file", () => {
    const env = github.env();
    expect(appConfigured(env)).toBe(true);
    expect(appConfigured({ ...env, GITHUB_APP_ID: "" })).toBe(false);
    expect(appConfigured({ ...env, GITHUB_APP_ID: "abc" })).toBe(false);
    expect(appConfigured({ ...env, GITHUB_APP_PRIVATE_KEY: "" })).toBe(false);
    expect(appConfigured({ ...env, GITHUB_APP_PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----" })).toBe(false);
    // One line with literal \n, as .env files carry it.
    expect(appConfigured({ ...env, GITHUB_APP_PRIVATE_KEY: env.GITHUB_APP_PRIVATE_KEY.replace(/\n/g, "\\n") })).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gh-key-"));
    const file = path.join(dir, "app.pem");
    fs.writeFileSync(file, env.GITHUB_APP_PRIVATE_KEY);
    expect(appConfigured({ GITHUB_APP_ID: env.GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY_FILE: file })).toBe(true);
    expect(appConfigured({ GITHUB_APP_ID: env.GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY_FILE: path.join(dir, "missing.pem") })).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });

  it("the webhook secret is null when unset or empty", () => {
    expect(githubWebhookSecret({ GITHUB_WEBHOOK_SECRET: "s3cret" })).toBe("s3cret");
    expect(githubWebhookSecret({ GITHUB_WEBHOOK_SECRET: "" })).toBeNull();
    expect(githubWebhookSecret({})).toBeNull();
  });

  it("defaults to api.github.com and derives the web origin for GitHub Enterprise Server", () => {
    expect(githubAppSettings({ ...github.env(), GITHUB_API_URL: "" })).toBeNull();
    const withoutUrl: Record<string, string | undefined> = { ...github.env(), GITHUB_API_URL: undefined };
    expect(githubAppSettings(withoutUrl)).toMatchObject({ apiUrl: "https://api.github.com", webUrl: "https://github.com" });
    expect(webUrlOf("https://ghe.example.com/api/v3")).toBe("https://ghe.example.com");
    expect(webUrlOf("https://ghe.example.com/api/v3/")).toBe("https://ghe.example.com");
    expect(webUrlOf(github.url)).toBe(github.url);
  });
});

describe("App JWT and installation tokens", () => {
  it("GET /app authenticates with an RS256 App JWT the fake verifies; a wrong key is refused", async () => {
    const app = client();
    const { data } = await app.app.octokit.request("GET /app");
    expect(data).toMatchObject({ id: github.appId, slug: github.slug });
    expect(github.requests.at(-1)).toMatchObject({ path: "/app", auth: "jwt", status: 200 });

    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const stranger = client({ GITHUB_APP_PRIVATE_KEY: otherKey });
    await expect(stranger.app.octokit.request("GET /app")).rejects.toMatchObject({ status: 401 });
    expect(github.requests.at(-1)).toMatchObject({ path: "/app", auth: "refused", status: 401 });
  });

  it("caches the installation token across calls", async () => {
    github.addInstallation(21, "acme", ["acme/widgets"]);
    const app = client();
    const first = await app.installationToken(21);
    const second = await app.installationToken(21);
    await listInstallationRepositories(app, 21);
    expect(second.token).toBe(first.token);
    expect(github.tokensIssued(21)).toBe(1);
    expect(first.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });

  it("concurrent first calls mint one token", async () => {
    github.addInstallation(22, "acme", ["acme/widgets"]);
    const app = client();
    const tokens = await Promise.all([app.installationToken(22), app.installationToken(22), app.installationToken(22)]);
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    expect(github.tokensIssued(22)).toBe(1);
  });

  it("mints a new token once the cached one is within the margin of its expires_at", async () => {
    github.addInstallation(23, "acme", ["acme/widgets"]);
    let now = Date.now();
    const app = client({}, { now: () => now });
    const first = await app.installationToken(23);
    now = first.expiresAt.getTime() - TOKEN_REFRESH_MARGIN_MS - 1_000;
    expect((await app.installationToken(23)).token).toBe(first.token);
    now = first.expiresAt.getTime() - TOKEN_REFRESH_MARGIN_MS + 1_000;
    const second = await app.installationToken(23);
    expect(second.token).not.toBe(first.token);
    expect(github.tokensIssued(23)).toBe(2);
  });

  it("a token that expires during a run is replaced: the next call gets 401 once, mints anew and succeeds", async () => {
    github.addInstallation(24, "acme", ["acme/widgets", "acme/gadgets"]);
    const app = client();
    expect((await listInstallationRepositories(app, 24)).map((r) => r.full_name)).toEqual(["acme/widgets", "acme/gadgets"]);
    const before = github.requests.length;
    github.expireTokens(24);
    const started = Date.now();
    expect((await listInstallationRepositories(app, 24)).map((r) => r.full_name)).toEqual(["acme/widgets", "acme/gadgets"]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(github.requests.slice(before).map((r) => `${r.method} ${r.path.split("?")[0]} ${r.status}`)).toEqual([
      "GET /installation/repositories 401",
      "POST /app/installations/24/access_tokens 201",
      "GET /installation/repositories 200",
    ]);
    expect(github.tokensIssued(24)).toBe(2);
  });

  it("an unknown installation is GitHub's 404, not a token", async () => {
    await expect(client().installationToken(999)).rejects.toMatchObject({ status: 404 });
  });
});

describe("install flow", () => {
  it("installUrl takes the App's page from GET /app and carries the state", async () => {
    const url = new URL(await installUrl(client(), "st.ate"));
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/apps/${github.slug}/installations/new`);
    expect(url.searchParams.get("state")).toBe("st.ate");
  });

  it("asks GET /app once, and again after a failed answer", async () => {
    const app = client();
    github.failNext("GET /app", 502);
    await expect(installUrl(app, "s")).rejects.toMatchObject({ status: 502 });
    const before = github.requests.length;
    expect(await installUrl(app, "s1")).toBe(`${github.url}/apps/${github.slug}/installations/new?state=s1`);
    expect(await installUrl(app, "s2")).toBe(`${github.url}/apps/${github.slug}/installations/new?state=s2`);
    expect(github.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /app 200"]);
  });

  it("with GITHUB_APP_SLUG it needs no request; github.com and Enterprise Server pages differ", async () => {
    const before = github.requests.length;
    expect(await installUrl(client({ GITHUB_APP_SLUG: "my-board" }), "s")).toBe(`${github.url}/apps/my-board/installations/new?state=s`);
    expect(github.requests.length).toBe(before);
    const dotcom = githubAppSettings({ ...github.env(), GITHUB_API_URL: "https://api.github.com", GITHUB_APP_SLUG: "my-board" })!;
    expect(await installUrl(createGithubApp(dotcom), "a b")).toBe("https://github.com/apps/my-board/installations/new?state=a+b");
    const ghes = githubAppSettings({ ...github.env(), GITHUB_API_URL: "https://ghe.example.com/api/v3", GITHUB_APP_SLUG: "my-board" })!;
    expect(await installUrl(createGithubApp(ghes), "s")).toBe("https://ghe.example.com/github-apps/my-board/installations/new?state=s");
  });

  it("lists the installation's repositories across pages", async () => {
    const many = Array.from({ length: 130 }, (_, i) => `big/repo-${i}`);
    github.addInstallation(31, "big", many);
    const repositories = await listInstallationRepositories(client(), 31);
    expect(repositories.map((r) => r.full_name)).toEqual(many);
    expect(repositories[0]).toMatchObject({ private: true, default_branch: "main", html_url: `${github.url}/big/repo-0` });
  });
});

describe("githubAppFromEnv", () => {
  it("is null without settings, one client per settings otherwise", () => {
    expect(githubAppFromEnv({})).toBeNull();
    const env = github.env();
    const first = githubAppFromEnv(env);
    expect(first?.settings).toMatchObject({ appId: github.appId, apiUrl: github.url });
    expect(githubAppFromEnv({ ...env })).toBe(first);
    expect(githubAppFromEnv({ ...env, GITHUB_APP_SLUG: "other" })).not.toBe(first);
  });
});
