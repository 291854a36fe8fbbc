import { GitFailed, runGit } from "@/lib/git/run-git";
import { hasClone } from "@/lib/git/task-branch-git";
import { refSha } from "@/lib/git/task-worktree";
import { readBundleHeader } from "@/lib/git/bundle/bundle-header";
import { lastLine } from "@/lib/git/workdir/workdir";

// A runner's bundle of a task's branch, taken into the server's clone of the workspace's repository
// (PUT /api/runner/executions/{id}/bundle), so "Open pull request" and the push after a run find the
// run's commits whichever machine ran it (docs/runners.md, "A run's commits on the server"). The
// bundle is untrusted (an agent controls the runner's clone): only the one ref the server names is
// taken, its objects go through `git index-pack --strict` (what transfer.fsckObjects does on a push;
// git before 2.47 skips it when fetching from a bundle), the ref moves only forward and in one
// compare-and-swap, so a failure at any step leaves every ref as it was. Every command runs hardened
// (lib/git/run-git.ts). A pure function of paths: `refresh` fetches the remote (the caller's credential).

export type StoredBundle =
  { stored: true; commitSha: string; changed: boolean } | { stored: false; commitSha: string | null; message: string };

/** The body is not a bundle the server takes (422): not a bundle, no such ref, objects that fail git's checks. */
export class InvalidBundle extends Error {}

export async function storeBranchBundle(
  cloneDir: string,
  file: string,
  branch: string,
  refresh: () => Promise<void>,
): Promise<StoredBundle> {
  const header = readBundleHeader(file);
  if (!header) throw new InvalidBundle("The body is not a git bundle (version 2 or 3, without a filter)");
  const ref = `refs/heads/${branch}`;
  const tip = header.refs.get(ref);
  if (!tip) throw new InvalidBundle(`The bundle holds no ${ref}, the task's branch`);
  const clone = { cloneDir };
  // A server whose runs all ran elsewhere has no clone yet.
  if (!hasClone(cloneDir)) await refresh();
  const old = await refSha(clone, ref);
  // The embedded runner's clone is this one: its run's commits are here already.
  if (old === tip) return { stored: true, commitSha: tip, changed: false };

  const lacking = await verify(cloneDir, file);
  if (lacking) {
    // The runner fetched newer commits of the base (or the branch) than this clone has.
    await refresh();
    const still = await verify(cloneDir, file);
    if (still) {
      const message = `the server's clone lacks commits the branch builds on (${still}), even after fetching the remote`;
      return { stored: false, commitSha: tip, message };
    }
  }
  await git(cloneDir, ["index-pack", "--stdin", "--fix-thin", "--strict"], { path: file, start: header.packOffset }).catch(
    (error: Error) => {
      throw new InvalidBundle(`The bundle's objects failed git's checks: ${lastLine(error.message)}`);
    },
  );
  // Every object the tip reaches is here now (the pack and what the clone had), and the tip is a commit.
  await git(cloneDir, ["rev-list", "--quiet", "--objects", `${tip}^{commit}`, "--not", "--all"]).catch(() => {
    throw new InvalidBundle(`The bundle does not carry every object of ${ref} beyond its prerequisites`);
  });
  if (old && !(await isAncestor(cloneDir, old, tip))) {
    return {
      stored: false,
      commitSha: tip,
      message: `${branch} on the server has commits the run's branch lacks (it is at ${old.slice(0, 12)}): it was not replaced, as a push never replaces them either`,
    };
  }
  // Moving a branch under a worktree would leave its files behind the branch, and the server runs
  // no git in a worktree an agent wrote to (docs/runners.md): that branch stays where it is.
  if (await worktreeOn(cloneDir, ref)) {
    const message = `${branch} is checked out in a worktree of the embedded runner on the server, so it was not moved to ${tip.slice(0, 12)}: run the task on that runner again, or push the branch`;
    return { stored: false, commitSha: tip, message };
  }
  try {
    await git(cloneDir, ["update-ref", "-m", "taskboard: a run's bundle", ref, tip, old ?? "0".repeat(tip.length)]);
  } catch (error) {
    return {
      stored: false,
      commitSha: tip,
      message: `${branch} was not moved to ${tip.slice(0, 12)}: ${lastLine((error as Error).message)}`,
    };
  }
  return { stored: true, commitSha: tip, changed: true };
}

/** null when the bundle's prerequisites are all in the clone, else the missing ones (short ids). Other failures: not a bundle. */
async function verify(cloneDir: string, file: string): Promise<string | null> {
  try {
    await git(cloneDir, ["bundle", "verify", file]);
    return null;
  } catch (error) {
    if (!(error instanceof GitFailed)) throw error;
    if (/lacks these prerequisite/i.test(error.message)) {
      const missing = error.message.match(/\b[0-9a-f]{40,64}\b/g) ?? [];
      return missing.map((sha) => sha.slice(0, 12)).join(", ") || "unnamed";
    }
    throw new InvalidBundle(`git bundle verify: ${lastLine(error.message)}`);
  }
}

async function isAncestor(cloneDir: string, ancestor: string, descendant: string): Promise<boolean> {
  return git(cloneDir, ["merge-base", "--is-ancestor", ancestor, descendant]).then(
    () => true,
    (error: unknown) => {
      if (error instanceof GitFailed && error.exitCode === 1) return false;
      throw error;
    },
  );
}

/** The worktree of the clone that has `ref` checked out, if any (the embedded runner's, from an earlier run). */
async function worktreeOn(cloneDir: string, ref: string): Promise<string | null> {
  await git(cloneDir, ["worktree", "prune"]);
  let current: string | null = null;
  for (const line of (await git(cloneDir, ["worktree", "list", "--porcelain"])).split("\n")) {
    if (line.startsWith("worktree ")) current = line.slice("worktree ".length);
    else if (line === `branch ${ref}` && current && current !== cloneDir) return current;
  }
  return null;
}

function git(cloneDir: string, args: string[], inputFile?: { path: string; start: number }): Promise<string> {
  return runGit({ cloneDir }, args, { inputFile, timeoutMs: 300_000 });
}
