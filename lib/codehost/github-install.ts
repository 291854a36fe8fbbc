import type { z } from "zod";
import { conflict, forbidden, HttpError } from "@/lib/api/errors";
import { authSecret } from "@/lib/auth/secret";
import type { Db } from "@/lib/db/client";
import { githubAppFromEnv, statusOf, type GithubApp } from "@/lib/github/app-client";
import { signInstallState, verifyInstallState, type InstallStateRefusal } from "@/lib/github/install-state";
import { installUrl } from "@/lib/github/install-url";
import { listInstallationRepositories } from "@/lib/github/list-installation-repositories";
import type { installationRepositoriesResponse } from "@/lib/codehost/schemas";

// "Connect GitHub": the owner is sent to the App's installation page with a signed state; GitHub
// sends the browser back to the setup callback with the installation id and the same state; the
// owner then picks one of the installation's repositories (PUT …/codehost). The state is signed with
// the server's session key (AUTH_SECRET), so every instance sharing that key accepts it.

export async function startGithubInstall(workspaceId: string, userId: string) {
  const state = signInstallState({ workspaceId, userId }, authSecret());
  return { install_url: await installUrl(requireApp(), state), state };
}

/**
 * The setup callback. The signed-in user must be the one who started, and still an owner of the
 * workspace. The installation id comes from the browser's address bar, so it is checked against the
 * App: an installation of another App (or none) cannot be recorded. Returns the workspace connected.
 */
export async function finishGithubInstall(db: Db, userId: string, installationId: number, state: string): Promise<string> {
  const checked = verifyInstallState(state, authSecret(), { userId });
  if (!checked.ok) throw new HttpError(checked.reason === "wrong_user" ? 403 : 400, REFUSALS[checked.reason]);
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: checked.workspaceId, userId } },
    select: { role: true },
  });
  if (membership?.role !== "owner") throw forbidden("Only workspace owners may do this");
  await installationOfApp(requireApp(), installationId);
  await db.workspace.update({
    where: { id: checked.workspaceId },
    data: { githubInstallationId: installationId, githubDisconnectReason: null },
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

// Minting a token is the App's own check that the installation is one of its installations.
async function installationOfApp(github: GithubApp, installationId: number) {
  try {
    await github.installationToken(installationId, { fresh: true });
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 403 || status === 422)
      throw new HttpError(400, "installation_id is not an installation of this GitHub App");
    throw error;
  }
}

const REFUSALS: Record<InstallStateRefusal, string> = {
  malformed: "The state is malformed",
  bad_signature: "The state was not issued by this server",
  expired: "The state has expired (it is valid for one hour): start again from the workspace settings",
  wrong_user: "The state was issued to another user",
  wrong_workspace: "The state was issued for another workspace",
};
