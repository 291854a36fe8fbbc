// What the runner and the git side of a run (lib/runner-process/job-workdir.ts, fix-conflicts-flow)
// share: the shape of their answers and of the `git` log entries.

/** One `git` entry of the execution log: what the server did in git, in words. */
export type GitLogUpdate = {
  step: "sync" | "branch" | "worktree" | "merge" | "commit" | "push" | "abort" | "diff" | "bundle" | "guard";
  message: string;
  files?: string[];
};

/** Appends an entry to the execution's log (the runner's log writer, lib/runs/append-log-entries.ts `LogWriter`). */
export type WorkdirLog = (type: "git", update: GitLogUpdate) => unknown;

export interface PreparedWorkdir {
  cwd: string;
  /** The task's branch, or null in a scratch directory. */
  branch: string | null;
  /** Set when there is nothing for the agent to do (a conflict fix whose merge was clean). */
  skipAgent?: { report: string };
  /** Instructions to give instead of the execution's own (a conflict fix adds the conflicted files). */
  instructions?: string;
  /**
   * The task's git directory and what it borrows read-only, as the runner made them: the only git
   * the sandbox mounts (lib/sandbox/sandboxed-command.ts). Absent in a scratch directory.
   */
  git?: { gitDir: string; readOnly: string[] };
}

/** A reason in words why the workdir could not be prepared; the runner fails the execution with it. */
export class WorkdirError extends Error {}

export function lastLine(text: string): string {
  return (
    text
      .trim()
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? text
  );
}
