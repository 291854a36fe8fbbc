import type { GithubApp } from "@/lib/github/client/app-client";
import { pullRequestDetail, splitRepo } from "@/lib/github/client/schemas";

// GitHub computes a pull request's mergeability in the background after a push or a PR event; until
// it has, `mergeable` is null. Poll with growing delays, a bounded number of times.

export const MERGEABILITY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000];

export type Mergeability = {
  /** null when GitHub had still not decided after the last attempt. */
  mergeable: boolean | null;
  mergeable_state: string;
  has_merge_conflict: boolean;
  head_sha: string;
  state: "open" | "closed";
};

export async function fetchMergeability(
  github: GithubApp,
  installationId: number,
  repo: string,
  prNumber: number,
  options: { delaysMs?: number[]; sleep?: (ms: number) => Promise<void> } = {},
): Promise<Mergeability> {
  const delays = options.delaysMs ?? MERGEABILITY_DELAYS_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { owner, repo: name } = splitRepo(repo);
  return github.asInstallation(installationId, async (octokit) => {
    for (let attempt = 0; ; attempt++) {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo: name, pull_number: prNumber });
      const pr = pullRequestDetail.parse(data);
      const decided = pr.mergeable !== null && pr.mergeable !== undefined;
      // A closed PR is never computed again: waiting for it would only burn the attempts.
      if (decided || pr.state === "closed" || attempt >= delays.length) {
        const mergeableState = pr.mergeable_state ?? "unknown";
        return {
          mergeable: pr.mergeable ?? null,
          mergeable_state: mergeableState,
          has_merge_conflict: mergeableState === "dirty",
          head_sha: pr.head.sha,
          state: pr.state,
        };
      }
      await sleep(delays[attempt]);
    }
  });
}
