import type { GithubApp } from "@/lib/github/app-client";
import { pullRequestDetail, splitRepo } from "@/lib/github/schemas";

export type OpenedPullRequest = { number: number; html_url: string; head_sha: string };

/** Opens a pull request from `head` (a branch already pushed) into `base`. GitHub answers 422 when one is open already. */
export async function openPullRequest(
  github: GithubApp,
  installationId: number,
  repo: string,
  input: { head: string; base: string; title: string; body: string; draft?: boolean },
): Promise<OpenedPullRequest> {
  const { owner, repo: name } = splitRepo(repo);
  return github.asInstallation(installationId, async (octokit) => {
    const { data } = await octokit.request("POST /repos/{owner}/{repo}/pulls", {
      owner,
      repo: name,
      head: input.head,
      base: input.base,
      title: input.title,
      body: input.body,
      draft: input.draft ?? false,
    });
    const pr = pullRequestDetail.parse(data);
    return { number: pr.number, html_url: pr.html_url, head_sha: pr.head.sha };
  });
}
