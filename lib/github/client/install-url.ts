import type { GithubApp } from "@/lib/github/client/app-client";

// The App's installation page, carrying the signed state back to the setup callback. With
// GITHUB_APP_SLUG the URL is built without a request; otherwise GET /app tells the App's own page
// (`html_url`), right for github.com and GitHub Enterprise Server alike. Octokit's getInstallationUrl
// does the same but keeps a failed GET /app forever, so one GitHub hiccup would break every later
// install until a restart; here a failure is forgotten and the next call asks again.

const appPages = new WeakMap<GithubApp, Promise<string>>();

export async function installUrl(github: GithubApp, state: string): Promise<string> {
  const url = new URL(`${await appPage(github)}/installations/new`);
  url.searchParams.set("state", state);
  return url.href;
}

function appPage(github: GithubApp): Promise<string> {
  const { slug, webUrl, apiUrl } = github.settings;
  if (slug) {
    // Enterprise Server names App pages /github-apps/<slug>; github.com (and the test fake) /apps/<slug>.
    const appsPath = new URL(apiUrl).pathname.replace(/\/+$/, "").endsWith("/api/v3") ? "github-apps" : "apps";
    return Promise.resolve(`${webUrl}/${appsPath}/${encodeURIComponent(slug)}`);
  }
  let page = appPages.get(github);
  if (!page) {
    page = github.app.octokit.request("GET /app").then(({ data }) => {
      if (!data?.html_url) throw new Error("GET /app answered without html_url");
      return data.html_url.replace(/\/+$/, "");
    });
    appPages.set(github, page);
    page.catch(() => appPages.get(github) === page && appPages.delete(github));
  }
  return page;
}
