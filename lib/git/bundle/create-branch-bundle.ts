import { runGit } from "@/lib/git/run-git";

// The runner's side of taking a run's commits to the server (docs/runners.md, "A run's commits on
// the server"): a git bundle of the task's branch, only the commits the default branch lacks, made
// with the runner's hardened git (lib/git/run-git.ts: hooks and fsmonitor off, explicit GIT_DIR, no
// secret in the environment). The server takes it into its own clone
// (lib/git/bundle/store-branch-bundle.ts).

/** Writes the bundle of `branch` to `file`; false (and no file) when the branch has nothing beyond the default branch. */
export async function createBranchBundle(cloneDir: string, branch: string, defaultBranch: string, file: string): Promise<boolean> {
  const place = { cloneDir };
  const ref = `refs/heads/${branch}`;
  const base = `refs/remotes/origin/${defaultBranch}`;
  const ahead = Number((await runGit(place, ["rev-list", "--count", ref, "--not", base])).trim());
  // git refuses to write an empty bundle; the server has nothing to take then either.
  if (ahead === 0) return false;
  await runGit(place, ["bundle", "create", "--quiet", file, ref, `^${base}`], { timeoutMs: 300_000 });
  return true;
}
