// Which branches of the workspace's repository are a task's own: the rule the push door
// (lib/git/remote/push-task-branch.ts) enforces, and that a run's start checks before it begins
// (docs/SECURITY.md, rule P1). Plain data, so a domain can ask without importing git.

export interface BranchOwner {
  number: number;
  prHeadBranch: string | null;
}

/** Why the board may not push `branch` for this task, in words; null when it is the task's own. */
export function foreignBranchReason(branch: string, task: BranchOwner, defaultBranch: string): string | null {
  if (branch === defaultBranch) return `${branch} is the repository's default branch: the board never pushes it`;
  if (branch === `tb/${task.number}` || branch.startsWith(`tb/${task.number}-`)) return null;
  if (task.prHeadBranch !== null && branch === task.prHeadBranch) return null;
  return (
    `${branch} is not the task's own branch (tb/${task.number}-…, or the head branch of the pull request GitHub linked to it): ` +
    "the board does not push it"
  );
}
