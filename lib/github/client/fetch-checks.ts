import type { GithubApp } from "@/lib/github/client/app-client";
import { checkRunsPage, splitRepo, type CheckRunItem } from "@/lib/github/client/schemas";

// One verdict for a commit from all its check runs (every suite, every app). A check event says
// only how one run or suite went, so the board's `checks` comes from the whole list.

export type ChecksVerdict = "pending" | "success" | "failure";
export type FailingCheck = { name: string; conclusion: string; title: string | null; summary: string | null };
export type Checks = { checks: ChecksVerdict | null; failing: FailingCheck[] };

const PER_PAGE = 100;
const MAX_PAGES = 5;
// Conclusions that count as passing; everything else that completed (failure, timed_out, cancelled,
// action_required, startup_failure, stale) needs a person or an agent.
const PASSING = new Set(["success", "neutral", "skipped"]);

export async function fetchChecks(github: GithubApp, installationId: number, repo: string, headSha: string): Promise<Checks> {
  const { owner, repo: name } = splitRepo(repo);
  return github.asInstallation(installationId, async (octokit) => {
    const runs: CheckRunItem[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", {
        owner,
        repo: name,
        ref: headSha,
        per_page: PER_PAGE,
        page,
        filter: "latest",
      });
      const parsed = checkRunsPage.parse(data);
      runs.push(...parsed.check_runs);
      if (parsed.check_runs.length < PER_PAGE || runs.length >= parsed.total_count) break;
    }
    return aggregateChecks(runs);
  });
}

/** Failure wins over pending (a failed run will not turn green by waiting); no runs at all is null. */
export function aggregateChecks(runs: CheckRunItem[]): Checks {
  const failing = runs
    .filter((run) => run.status === "completed" && !PASSING.has(run.conclusion ?? ""))
    .map((run) => ({
      name: run.name,
      conclusion: run.conclusion ?? "unknown",
      title: run.output?.title ?? null,
      summary: run.output?.summary ?? null,
    }));
  if (runs.length === 0) return { checks: null, failing };
  if (failing.length > 0) return { checks: "failure", failing };
  if (runs.some((run) => run.status !== "completed")) return { checks: "pending", failing };
  return { checks: "success", failing };
}
