import type { GithubApp } from "@/lib/github/client/app-client";
import { installationRepositories, type RepositoryItem } from "@/lib/github/client/schemas";

// The repositories an installation can see, for the "pick a repository" step. Installations on big
// organisations see thousands; the list is capped so one request to this app stays bounded.

const PER_PAGE = 100;
export const MAX_REPOSITORIES = 1000;

export async function listInstallationRepositories(github: GithubApp, installationId: number): Promise<RepositoryItem[]> {
  return github.asInstallation(installationId, async (octokit) => {
    const repositories: RepositoryItem[] = [];
    for (let page = 1; repositories.length < MAX_REPOSITORIES; page++) {
      const { data } = await octokit.request("GET /installation/repositories", { per_page: PER_PAGE, page });
      const parsed = installationRepositories.parse(data);
      repositories.push(...parsed.repositories);
      if (parsed.repositories.length < PER_PAGE || repositories.length >= parsed.total_count) break;
    }
    return repositories.slice(0, MAX_REPOSITORIES);
  });
}
