import type { GithubApp } from "@/lib/github/client/app-client";
import { repoFullName } from "@/lib/github/client/schemas";
import type { RemoteAccess } from "@/lib/git/remote-access";

// How git clones from and pushes to the connected repository with an installation token, without the
// token being stored. A URL with the token inside (https://x-access-token:<token>@host/o/r.git) would
// be written into .git/config by `git clone` and show in `ps`; instead the remote URL stays plain and
// the token reaches git as secret configuration written to a private file for one command
// (lib/git/remote-access.ts), as the Basic credentials GitHub documents for installation tokens
// (user "x-access-token"), limited to the GitHub host so a submodule elsewhere never receives it.

export type GitRemoteAccess = {
  /** The plain remote URL, safe to store (`git clone <url>`, `git remote add origin <url>`). */
  url: string;
  /** How each git command that talks to the remote reaches it; valid until `expiresAt`. */
  access: RemoteAccess;
  expiresAt: Date;
};

/**
 * The remote of the connected repository with a token valid for at least the cache's margin (a fresh
 * one once the cached token is that close to `expires_at`). `fresh` mints a new one regardless: after
 * git was refused, because a token can be revoked or expire early.
 */
export async function gitRemoteAccess(
  github: GithubApp,
  installationId: number,
  repo: string,
  options: { fresh?: boolean } = {},
): Promise<GitRemoteAccess> {
  const { token, expiresAt } = await github.installationToken(installationId, { fresh: options.fresh });
  return { ...githubRemote(github, repo, token), expiresAt };
}

/**
 * A job's remote (what a runner gets): a token minted for this job alone (never cached: it is
 * revoked when the run ends), limited to this one repository and its contents; the server's own
 * work (pull requests, checks) uses the installation's. The token comes apart from the access, for
 * the server to keep sealed until it revokes it; it is never handed out as such.
 */
export async function jobRemoteAccess(
  github: GithubApp,
  installationId: number,
  repo: string,
): Promise<{ remote: GitRemoteAccess; token: string }> {
  const scope = { repository: repoFullName.parse(repo) };
  const { token, expiresAt } = await github.installationToken(installationId, { scope, own: true });
  return { remote: { ...githubRemote(github, repo, token), expiresAt }, token };
}

/** The plain URL of the connected repository and git's access to it with `token`. */
export function githubRemote(github: GithubApp, repo: string, token: string): { url: string; access: RemoteAccess } {
  const web = github.settings.webUrl;
  return { url: `${web}/${repoFullName.parse(repo)}.git`, access: tokenAccess(web, token) };
}

/** git's own words when the remote refused the credentials (HTTP 401/403), as opposed to any other failure. */
export function isGitAuthFailure(message: string): boolean {
  return /Authentication failed|could not read Username|terminal prompts disabled|The requested URL returned error: 40[13]|HTTP 40[13]/i.test(
    message,
  );
}

function tokenAccess(webUrl: string, token: string): RemoteAccess {
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  return { config: [], secretConfig: [[`http.${webUrl}/.extraHeader`, `Authorization: Basic ${basic}`]] };
}
