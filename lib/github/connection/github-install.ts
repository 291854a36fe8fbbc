import type { z } from "zod";
import { conflict, forbidden, HttpError } from "@/lib/platform/errors";
import { authSecret } from "@/lib/crypto/auth-secret";
import type { Db } from "@/lib/db/client";
import { githubAppFromEnv, statusOf, type GithubApp } from "@/lib/github/client/app-client";
import { signInstallState, verifyInstallState, type InstallStateRefusal } from "@/lib/github/client/install-state";
import { installUrl } from "@/lib/github/client/install-url";
import { listInstallationRepositories } from "@/lib/github/client/list-installation-repositories";
import { userCanAccessInstallation, userTokenFor } from "@/lib/github/client/user-installations";
import type { installCallbackQuery, installationRepositoriesResponse } from "@/lib/github/connection/schemas";

// "Connect GitHub": the owner is sent to the App's installation page with a signed state; the App
// requests user authorization during installation, so GitHub sends the browser back to the callback
// with the installation id, an authorization `code` and the same state. The code becomes a user
// token, and the installation is recorded only when GitHub lists it among that user's installations
// (GET /user/installations): an installation id alone is a small integer anyone can type. The owner
// then picks one of the installation's repositories (PUT …/codehost). The state is signed with the
// server's session key (AUTH_SECRET), so every instance sharing that key accepts it.

export async function startGithubInstall(workspaceId: string, userId: string) {
  const github = requireApp();
  requireOauth(github);
  const state = signInstallState({ workspaceId, userId }, authSecret());
  return { install_url: await installUrl(github, state), state };
}

/**
 * The setup callback. The signed-in user must be the one who started, and still an owner of the
 * workspace the state names; GitHub must say that user can access the installation. A new
 * installation clears the repository picked for another one. Returns the workspace connected.
 */
export async function finishGithubInstall(db: Db, userId: string, query: z.output<typeof installCallbackQuery>): Promise<string> {
  const checked = verifyInstallState(query.state, authSecret(), { userId });
  if (!checked.ok) throw new HttpError(checked.reason === "wrong_user" ? 403 : 400, REFUSALS[checked.reason]);
  const workspace = await db.workspace.findUnique({
    where: { id: checked.workspaceId },
    select: { githubInstallationId: true, memberships: { where: { userId }, select: { role: true } } },
  });
  if (workspace?.memberships[0]?.role !== "owner") throw forbidden("Only workspace owners may do this");
  const github = requireApp();
  const oauth = requireOauth(github);
  if (!query.code) throw new HttpError(400, NO_CODE);
  const token = await userTokenFor(github, oauth, query.code).catch(refusedByGithub);
  const allowed = await userCanAccessInstallation(github, token, query.installation_id).catch(refusedByGithub);
  if (!allowed) {
    throw forbidden(
      `GitHub does not list installation ${query.installation_id} among the installations of this App your GitHub account can access: install the App yourself, or ask someone with access to it`,
    );
  }
  const same = workspace.githubInstallationId === query.installation_id;
  await db.workspace.update({
    where: { id: checked.workspaceId },
    data: { githubInstallationId: query.installation_id, githubDisconnectReason: null, ...(same ? {} : { githubRepo: null }) },
  });
  return checked.workspaceId;
}

export async function installationRepositoriesOf(db: Db, workspaceId: string): Promise<z.input<typeof installationRepositoriesResponse>> {
  const { githubInstallationId } = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { githubInstallationId: true },
  });
  if (githubInstallationId === null) throw conflict("No GitHub installation is recorded for this workspace: connect GitHub first");
  const repositories = await listInstallationRepositories(requireApp(), githubInstallationId);
  return {
    installation_id: githubInstallationId,
    items: repositories.map((repo) => ({
      full_name: repo.full_name,
      private: repo.private,
      default_branch: repo.default_branch ?? null,
      html_url: repo.html_url,
    })),
  };
}

function requireApp(): GithubApp {
  const github = githubAppFromEnv();
  if (!github) throw conflict("The GitHub App is not configured on this server (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY)");
  return github;
}

function requireOauth(github: GithubApp) {
  if (!github.settings.oauth) throw conflict(OAUTH_MISSING);
  return github.settings.oauth;
}

/** GitHub refused the code (used, expired, another App's) or the client secret: a 4xx in words, never a 500. */
function refusedByGithub(error: unknown): never {
  const status = statusOf(error);
  if (status === undefined || status >= 500) throw new HttpError(502, "GitHub could not be asked who installed the App; try again");
  const reason = error instanceof Error ? error.message : String(error);
  if (/incorrect_client_credentials/.test(reason)) {
    throw conflict(
      "GitHub refused the App's client id or secret (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET): ask the administrator to check them",
    );
  }
  throw new HttpError(
    400,
    `GitHub did not accept the authorization from the installation (${reason}): start again from the workspace settings`,
  );
}

export const OAUTH_MISSING =
  "Connecting GitHub needs the App's client id and secret on the server (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET), so the board can ask GitHub who installed the App; ask the administrator to set them";

const NO_CODE =
  'GitHub sent no authorization code: the App must have "Request user authorization (OAuth) during installation" turned on, with this address as its callback URL (docs/github.md)';

const REFUSALS: Record<InstallStateRefusal, string> = {
  malformed: "The state is malformed",
  bad_signature: "The state was not issued by this server",
  expired: "The state has expired (it is valid for one hour): start again from the workspace settings",
  wrong_user: "The state was issued to another user",
  wrong_workspace: "The state was issued for another workspace",
};
