// The body of a pull request the board opens for a task: the run's report, then the task. The
// `#tb-<number>` mention (or the task id when the task has no number) lets the pull_request webhook
// link the PR back to its task even before the board has recorded its URL.

/** GitHub refuses pull request bodies longer than this (422 "body is too long"). */
export const PR_BODY_MAX = 65_536;

export function pullRequestBody(input: { report: string | null; taskUrl: string; taskId: string; taskNumber: number | null }): string {
  const reference = input.taskNumber !== null ? `#tb-${input.taskNumber}` : input.taskId;
  const footer = `\n\n---\nTask ${reference}: ${input.taskUrl}\n`;
  const report = input.report?.trim() || "The agent's run left no report.";
  const room = PR_BODY_MAX - footer.length;
  const cut = "\n\n… (report shortened)";
  return (report.length <= room ? report : report.slice(0, room - cut.length) + cut) + footer;
}
