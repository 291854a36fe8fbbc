import { aggregateChecks, type ChecksVerdict } from "@/lib/github/client/fetch-checks";
import { checkRunPayload, checkSuitePayload } from "@/lib/github/client/schemas";

// What a check_suite or check_run delivery means for the board: the commit whose checks changed and
// this event's own verdict. A commit usually has several runs (and suites from several apps), so the
// caller records `event_checks` at once only as a first answer and then asks fetchChecks for the
// verdict over all runs of `head_sha`, which is what `checks` must show.

export type ChecksChange = {
  installation_id: number | null;
  repo: string;
  head_sha: string;
  /** PR numbers GitHub attached to the suite or run (empty for PRs from forks). */
  pr_numbers: number[];
  event_checks: ChecksVerdict;
};

export function checksChange(event: "check_suite" | "check_run", payload: unknown): ChecksChange | null {
  if (event === "check_suite") {
    const parsed = checkSuitePayload.safeParse(payload);
    if (!parsed.success) return null;
    const { check_suite: suite, repository, installation } = parsed.data;
    return {
      installation_id: installation?.id ?? null,
      repo: repository.full_name,
      head_sha: suite.head_sha,
      pr_numbers: suite.pull_requests.map((pr) => pr.number),
      event_checks:
        aggregateChecks([{ name: "suite", status: suite.status ?? "queued", conclusion: suite.conclusion }]).checks ?? "pending",
    };
  }
  const parsed = checkRunPayload.safeParse(payload);
  if (!parsed.success) return null;
  const { check_run: run, repository, installation } = parsed.data;
  return {
    installation_id: installation?.id ?? null,
    repo: repository.full_name,
    head_sha: run.head_sha,
    pr_numbers: run.pull_requests.map((pr) => pr.number),
    event_checks: aggregateChecks([run]).checks ?? "pending",
  };
}
