import fs from "node:fs";
import path from "node:path";
import { GitRefused } from "@/lib/git/git-refused";
import { runGit } from "@/lib/git/run-git";
import type { GitRemote } from "@/lib/git/remote/git-remote-for";

// The git a pull request needs from the server's clone of the workspace's repository (where agent
// runs leave their branches, lib/git/task-worktree.ts): how far a task's branch is ahead of the base,
// and the git half of pushing it (lib/git/remote/push-task-branch.ts decides what may be pushed).
// Remote commands get the remote's URL and access from gitRemoteFor; its token reaches only the one
// git command, through a private file (lib/git/remote-access.ts), never the clone's configuration.
// Every command runs checked and hardened (lib/git/run-git.ts).

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
  const fetch = (refspecs: string[]) => git(cloneDir, ["fetch", "--quiet", "--", remote.url, ...refspecs], remote);
  await fetch([`+refs/heads/${base}:refs/remotes/origin/${base}`, `+refs/heads/${branch}:refs/remotes/origin/${branch}`]).catch(
    // The branch may not exist on the remote yet: fetch the base alone.
    () => fetch([`+refs/heads/${base}:refs/remotes/origin/${base}`]),
  );
  const local = await hasRef(cloneDir, `refs/heads/${branch}`);
  const ref = local ? `refs/heads/${branch}` : `refs/remotes/origin/${branch}`;
  if (!local && !(await hasRef(cloneDir, ref))) return null;
  const ahead = Number((await git(cloneDir, ["rev-list", "--count", `refs/remotes/origin/${base}..${ref}`])).trim());
  return { ref, ahead, local };
}

/**
 * Pushes the clone's branch to the remote's branch of the same name; returns the pushed head. With
 * `commit`, exactly that commit is pushed, as a compare-and-swap: only while the remote's branch is
 * still where the board last fetched it (`--force-with-lease` on that value, or on its absence), so
 * a push never overwrites what someone else pushed meanwhile. Without it, the clone's branch, never
 * forced (the runner's push of a conflict fix, from the task's own repository). Called only by
 * lib/git/remote/push-task-branch.ts and the runner, which first check the branch is the task's own.
 */
export async function pushRef(cloneDir: string, remote: GitRemote, branch: string, commit?: string): Promise<string> {
  const head = commit ?? (await git(cloneDir, ["rev-parse", "--verify", `refs/heads/${branch}`])).trim();
  const lease = commit ? [`--force-with-lease=refs/heads/${branch}:${await remoteTrackingSha(cloneDir, branch)}`] : [];
  await git(cloneDir, ["push", "--quiet", ...lease, "--", remote.url, `${head}:refs/heads/${branch}`], remote);
  // Keep the remote-tracking copy in step, as a push to a named remote would.
  await git(cloneDir, ["update-ref", `refs/remotes/origin/${branch}`, head]);
  return head;
}

/** Where the board last saw the remote's branch ("" when it saw none: the lease then requires that it still does not exist). */
async function remoteTrackingSha(cloneDir: string, branch: string): Promise<string> {
  const ref = `refs/remotes/origin/${branch}`;
  return (await hasRef(cloneDir, ref)) ? headOf(cloneDir, ref) : "";
}

/** The commit a ref names. */
export async function headOf(cloneDir: string, ref: string): Promise<string> {
  return (await git(cloneDir, ["rev-parse", "--verify", ref])).trim();
}

function git(cloneDir: string, args: string[], remote?: GitRemote): Promise<string> {
  // Never the server's own credentials: lib/git/git-environment.ts.
  return runGit({ cloneDir }, args, { access: remote?.access, timeoutMs: 120_000 });
}

async function hasRef(cloneDir: string, ref: string): Promise<boolean> {
  const sha = await git(cloneDir, ["rev-parse", "--verify", "--quiet", ref]).catch((error: unknown) => {
    if (error instanceof GitRefused) throw error;
    return "";
  });
  return sha.trim().length > 0;
}
