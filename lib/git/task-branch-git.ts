import fs from "node:fs";
import path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { gitEnvironment, gitOptions } from "@/lib/git/git-environment";
import type { GitRemote } from "@/lib/git/remote/git-remote-for";

// The git a pull request needs from the server's clone of the workspace's repository (where agent
// runs leave their branches, lib/git/task-worktree.ts): how far a task's branch is ahead of the base,
// and the git half of pushing it (lib/git/remote/push-task-branch.ts decides what may be pushed).
// Remote commands get the remote's URL and environment from gitRemoteFor; the token in that
// environment reaches only this one git process (simple-git's guard lets exactly those variables
// through), never the clone's configuration.

export type BranchState = { ref: string; ahead: number; local: boolean };

/** True when the server holds a clone of the repository. */
export function hasClone(cloneDir: string): boolean {
  return fs.existsSync(path.join(cloneDir, "HEAD")) || fs.existsSync(path.join(cloneDir, ".git"));
}

/**
 * Fetches the base branch, then counts the branch's commits that the base lacks. The branch is the
 * clone's own (an agent run's work, maybe not pushed yet) or, failing that, the remote's copy.
 */
export async function branchState(cloneDir: string, remote: GitRemote, branch: string, base: string): Promise<BranchState | null> {
  await git(cloneDir, remote)
    .fetch([remote.url, `+refs/heads/${base}:refs/remotes/origin/${base}`, `+refs/heads/${branch}:refs/remotes/origin/${branch}`])
    .catch(
      // The branch may not exist on the remote yet: fetch the base alone.
      () => git(cloneDir, remote).fetch([remote.url, `+refs/heads/${base}:refs/remotes/origin/${base}`]),
    );
  const repo = git(cloneDir);
  const local = await hasRef(repo, `refs/heads/${branch}`);
  const ref = local ? `refs/heads/${branch}` : `refs/remotes/origin/${branch}`;
  if (!local && !(await hasRef(repo, ref))) return null;
  const ahead = Number((await repo.raw(["rev-list", "--count", `refs/remotes/origin/${base}..${ref}`])).trim());
  return { ref, ahead, local };
}

/**
 * Pushes the clone's branch to the remote's branch of the same name (never forced); returns its head.
 * Called only by lib/git/remote/push-task-branch.ts, which first checks the branch is the task's own.
 */
export async function pushRef(cloneDir: string, remote: GitRemote, branch: string): Promise<string> {
  await git(cloneDir, remote).push([remote.url, `refs/heads/${branch}:refs/heads/${branch}`]);
  // Keep the remote-tracking copy in step, as a push to a named remote would.
  const repo = git(cloneDir);
  const head = (await repo.revparse([`refs/heads/${branch}`])).trim();
  await repo.raw(["update-ref", `refs/remotes/origin/${branch}`, head]);
  return head;
}

/** The commit a ref names. */
export async function headOf(cloneDir: string, ref: string): Promise<string> {
  return (await git(cloneDir).revparse([ref])).trim();
}

function git(dir: string, remote?: GitRemote): SimpleGit {
  // Never the server's own credentials: lib/git/git-environment.ts.
  const env = remote?.env ?? gitEnvironment();
  return simpleGit({ ...gitOptions(env), baseDir: dir, timeout: { block: 120_000 } }).env(env);
}

async function hasRef(repo: SimpleGit, ref: string): Promise<boolean> {
  const sha = await repo.raw(["rev-parse", "--verify", "--quiet", ref]).catch(() => "");
  return sha.trim().length > 0;
}
