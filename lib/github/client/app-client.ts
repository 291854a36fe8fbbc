import { App } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { githubAppSettings, type GithubAppSettings } from "@/lib/platform/github-app-settings";

// One client per App: the App JWT and token minting come from @octokit/app (auth-app underneath); the
// installation tokens are cached here. Octokit's own cache keeps a token for a fixed 59 minutes from
// minting, whatever `expires_at` says, and on a 401 retries the same token for 5 seconds (replication
// delay) but never mints a new one, so a token revoked or expired early would fail every call until
// the entry aged out. This cache honours `expires_at` minus a margin and mints afresh after a 401.

/** A token this close to its expiry is not handed out: a git push that starts with it must finish. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export type InstallationToken = { token: string; expiresAt: Date };

/**
 * A token for one repository of the installation ("owner/name"), allowed only to read and write its
 * contents (git fetch and push): what a job's runner gets (docs/runners.md, "Job credentials").
 */
export type TokenScope = { repository: string };
/** What a repository-scoped token may do: git over HTTPS needs contents (metadata comes with any token). */
const SCOPED_PERMISSIONS = { contents: "write" } as const;

export type GithubApp = {
  settings: GithubAppSettings;
  /** Octokit's App, authenticated with the App JWT (GET /app, minting installation tokens). */
  app: App;
  /**
   * A cached installation token valid for at least the margin; `fresh` skips the cache; `scope` limits it to one repository;
   * `own`: a token minted for the caller alone, never cached or shared (a job's, revoked when its run ends).
   */
  installationToken(installationId: number, options?: { fresh?: boolean; scope?: TokenScope; own?: boolean }): Promise<InstallationToken>;
  /** Revokes an installation token at GitHub (`DELETE /installation/token`, authenticated with the token itself). */
  revokeInstallationToken(token: string): Promise<void>;
  /** A REST client against the App's GitHub: anonymous, or with `token` (a user's token). */
  client(token?: string): Octokit;
  /** Runs `call` with an Octokit that authenticates as the installation; after a 401, once more with a new token. */
  asInstallation<T>(installationId: number, call: (octokit: Octokit) => Promise<T>): Promise<T>;
};

export type GithubAppOptions = { now?: () => number; refreshMarginMs?: number };

export function createGithubApp(settings: GithubAppSettings, options: GithubAppOptions = {}): GithubApp {
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? TOKEN_REFRESH_MARGIN_MS;
  const RestClient = Octokit.defaults({ baseUrl: settings.apiUrl, userAgent: "taskboard" });
  const app = new App({ appId: settings.appId, privateKey: settings.privateKey, Octokit: RestClient, log: quietLog });
  const tokens = new Map<string, Promise<InstallationToken>>();

  async function installationToken(
    installationId: number,
    { fresh = false, scope, own = false }: { fresh?: boolean; scope?: TokenScope; own?: boolean } = {},
  ): Promise<InstallationToken> {
    // The installation's own token and each repository's scoped one are cached apart: never is one handed out for the other.
    const key = scope ? `${installationId}:${scope.repository}` : String(installationId);
    const cached = fresh || own ? undefined : tokens.get(key);
    // An entry may still be minting: concurrent callers share it. A failed mint is retried by the next call.
    const token = cached && (await cached.catch(() => null));
    if (token && token.expiresAt.getTime() - margin > now()) return token;
    // refresh: true bypasses Octokit's cache (see above); Octokit still sends one request for concurrent mints.
    // GitHub takes the repository's name without its owner (the installation's account).
    const scoped = scope ? { repositoryNames: [scope.repository.split("/")[1]], permissions: { ...SCOPED_PERMISSIONS } } : {};
    const minting = app.octokit.auth({ type: "installation", installationId, refresh: true, ...scoped }).then((auth) => {
      const { token, expiresAt } = auth as { token: string; expiresAt: string };
      return { token, expiresAt: new Date(expiresAt) };
    });
    // A token of its own is revoked by its holder: handed to anyone else, it would fail them early.
    if (own) return minting;
    tokens.set(key, minting);
    return minting;
  }

  async function revokeInstallationToken(token: string): Promise<void> {
    await new RestClient({ auth: token }).request("DELETE /installation/token");
  }

  async function asInstallation<T>(installationId: number, call: (octokit: Octokit) => Promise<T>): Promise<T> {
    const { token } = await installationToken(installationId);
    try {
      return await call(new RestClient({ auth: token }));
    } catch (error) {
      if (statusOf(error) !== 401) throw error;
      const renewed = await installationToken(installationId, { fresh: true });
      return call(new RestClient({ auth: renewed.token }));
    }
  }

  const client = (token?: string) => new RestClient(token ? { auth: token } : {});

  return { settings, app, installationToken, revokeInstallationToken, client, asInstallation };
}

// On globalThis: Next bundles the routes and instrumentation (the runner) separately, and one token
// cache per process means one installation token in use at a time, not one per bundle.
const shared = globalThis as typeof globalThis & { __taskboardGithubApp?: { key: string; client: GithubApp | null } };

/** The server's App client from the environment (null when not configured), built once per settings. */
export function githubAppFromEnv(env: Record<string, string | undefined> = process.env): GithubApp | null {
  // Keyed by the raw variables, so a request pays for neither reading the key file nor parsing the key.
  const key = [
    "GITHUB_APP_ID",
    "GITHUB_APP_PRIVATE_KEY",
    "GITHUB_APP_PRIVATE_KEY_FILE",
    "GITHUB_API_URL",
    "GITHUB_APP_SLUG",
    "GITHUB_CLIENT_ID",
    "GITHUB_CLIENT_SECRET",
  ]
    .map((name) => env[name] ?? "")
    .join("\0");
  if (shared.__taskboardGithubApp?.key !== key) {
    const settings = githubAppSettings(env);
    shared.__taskboardGithubApp = { key, client: settings ? createGithubApp(settings) : null };
  }
  return shared.__taskboardGithubApp.client;
}

/** The HTTP status of an Octokit RequestError (or undefined for anything else). */
export function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : undefined;
}

const quietLog = { debug: () => {}, info: () => {}, warn: console.warn.bind(console), error: console.error.bind(console) };
