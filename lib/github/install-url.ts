import type { GithubApp } from "@/lib/github/app-client";

// The App's installation page, carrying the signed state back to the setup callback. With
// GITHUB_APP_SLUG the URL is built without a request; otherwise GET /app tells the App's own page
// (`html_url`), which is right for github.com and GitHub Enterprise Server alike (Octokit's
// getInstallationUrl, cached per client).

export async function installUrl(github: GithubApp, state: string): Promise<string> {
  const { slug, webUrl, apiUrl } = github.settings;
  if (!slug) return github.app.getInstallationUrl({ state });
  // Enterprise Server names App pages /github-apps/<slug>; github.com (and the test fake) /apps/<slug>.
  const appsPath = new URL(apiUrl).pathname.replace(/\/+$/, "").endsWith("/api/v3") ? "github-apps" : "apps";
  const url = new URL(`${webUrl}/${appsPath}/${encodeURIComponent(slug)}/installations/new`);
  url.searchParams.set("state", state);
  return url.href;
}
