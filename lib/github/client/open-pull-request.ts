import { z } from "zod";
import { statusOf, type GithubApp } from "@/lib/github/client/app-client";
import { pullRequestDetail, splitRepo } from "@/lib/github/client/schemas";

export type OpenedPullRequest = { number: number; html_url: string; head_sha: string; draft: boolean; created: boolean };

/**
 * Opens a pull request from `head` (a branch already pushed) into `base`. When GitHub answers that one
 * is open already for that head (422 "A pull request already exists for owner:branch"), that one is
 * returned instead, with `created: false`.
 */
export async function openPullRequest(
  github: GithubApp,
  installationId: number,
  repo: string,
  input: { head: string; base: string; title: string; body: string; draft?: boolean },
): Promise<OpenedPullRequest> {
  const { owner, repo: name } = splitRepo(repo);
  return github.asInstallation(installationId, async (octokit) => {
    try {
      const { data } = await octokit.request("POST /repos/{owner}/{repo}/pulls", {
        owner,
        repo: name,
        head: input.head,
        base: input.base,
        title: input.title,
        body: input.body,
        draft: input.draft ?? false,
      });
      return { ...summary(pullRequestDetail.parse(data)), created: true };
    } catch (error) {
      if (statusOf(error) !== 422 || !alreadyExists(error)) throw error;
      // `head` is "owner:branch" for the list filter; the open one for that head is the one GitHub meant.
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls", {
        owner,
        repo: name,
        head: `${owner}:${input.head}`,
        state: "open",
      });
      const existing = z.array(pullRequestDetail).parse(data)[0];
      if (!existing) throw error;
      return { ...summary(existing), created: false };
    }
  });
}

function summary(pr: z.infer<typeof pullRequestDetail>) {
  return { number: pr.number, html_url: pr.html_url, head_sha: pr.head.sha, draft: pr.draft ?? false };
}

function alreadyExists(error: unknown): boolean {
  const errors = (error as { response?: { data?: { errors?: Array<{ message?: string }> } } }).response?.data?.errors ?? [];
  return errors.some((item) => /already exists/i.test(item.message ?? ""));
}
