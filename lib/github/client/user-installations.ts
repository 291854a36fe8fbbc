import { exchangeWebFlowCode } from "@octokit/oauth-methods";
import { z } from "zod";
import type { GithubApp } from "@/lib/github/client/app-client";

// Who installed the App, as GitHub says it: the setup callback's `code` (sent when the App requests
// user authorization during installation) is traded for a user token, and GET /user/installations
// lists the installations of this App that user can access. The token lives for this request only.

const PER_PAGE = 100;
/** Enough for any person; a list that never ends must not hold the request forever. */
const MAX_PAGES = 50;

const userInstallations = z.object({
  total_count: z.int(),
  installations: z.array(z.object({ id: z.int() })),
});

export type OauthClient = { clientId: string; clientSecret: string };

/** A user token for GitHub's `code` (POST {web host}/login/oauth/access_token; the host derives from GITHUB_API_URL). */
export async function userTokenFor(github: GithubApp, oauth: OauthClient, code: string): Promise<string> {
  const { authentication } = await exchangeWebFlowCode({
    clientType: "github-app",
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    code,
    request: github.client().request,
  });
  return authentication.token;
}

/** True when GET /user/installations (every page) lists `installationId` for the token's user. */
export async function userCanAccessInstallation(github: GithubApp, userToken: string, installationId: number): Promise<boolean> {
  const octokit = github.client(userToken);
  let seen = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await octokit.request("GET /user/installations", { per_page: PER_PAGE, page });
    const parsed = userInstallations.parse(data);
    if (parsed.installations.some((installation) => installation.id === installationId)) return true;
    seen += parsed.installations.length;
    if (parsed.installations.length < PER_PAGE || seen >= parsed.total_count) return false;
  }
  return false;
}
