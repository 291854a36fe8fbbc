import type { GithubApp } from "@/lib/github/client/app-client";
import { repositoryItem, splitRepo, type RepositoryItem } from "@/lib/github/client/schemas";

/** One repository as the installation sees it (its default branch, for the workspace's repository). */
export async function fetchRepository(github: GithubApp, installationId: number, repo: string): Promise<RepositoryItem> {
  const { owner, repo: name } = splitRepo(repo);
  return github.asInstallation(installationId, async (octokit) => {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}", { owner, repo: name });
    return repositoryItem.parse(data);
  });
}
