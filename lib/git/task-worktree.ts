import fs from "node:fs";
import path from "node:path";
import { filesWithMarkers } from "@/lib/git/conflict-markers";
import { parseNumstat } from "@/lib/git/parse-diff";
import type { RemoteAccess } from "@/lib/git/remote-access";
import { GitRefused } from "@/lib/git/git-refused";
import { runGit } from "@/lib/git/run-git";
import type { GitPlace } from "@/lib/git/worktree-guard";

// Git for agent runs. One clone per workspace (DATA_DIR/repos/<workspace_id>, no working tree of its
// own) holds the remote-tracking branches; each task gets a repository of its own on its own branch
// (lib/git/task-repository.ts), so two tasks never share files or refs. Every command goes through runGit (lib/git/run-git.ts): the place
// is checked first (a worktree's `.git`, the repository's configuration), then git runs with an
// explicit GIT_DIR and GIT_WORK_TREE, hooks, fsmonitor and drivers off, never the server user's own
// credentials; a remote's credentials come only with its RemoteAccess, for one command.
// Functions of paths and credentials only: a runner without the database can call them.

/** Who commits the agent's work; the agent's own commits keep their authors. */
const COMMITTER = ["user.name=Taskboard", "user.email=taskboard@localhost", "commit.gpgsign=false"];
// A first worktree writes every file of the repository; git's parallel checkout (0 = one worker per
// core) writes them from several processes: 10,000 files took ~270 ms with one and ~220 ms with two
// workers here (docs/PERFORMANCE.md, "Task worktrees"). Merges and resets use it too.
const CHECKOUT = ["checkout.workers=0"];
const SETTINGS = [...COMMITTER, ...CHECKOUT].flatMap((entry) => ["-c", entry]);
const LS_REMOTE_TIMEOUT_MS = 20_000;

export interface BranchChanges {
  commitSha: string;
  filesChanged: number;
  linesAdded: number;
  linesRemoved: number;
}

/** A task's worktree `dir` of the clone `cloneDir`. */
export type Worktree = Required<GitPlace>;

function git(place: GitPlace, args: string[], access?: RemoteAccess): Promise<string> {
  return runGit(place, [...SETTINGS, ...args], { access });
}

/** Clones the repository once, without checking anything out, then fetches every branch. */
export async function syncClone(url: string, cloneDir: string, access?: RemoteAccess): Promise<void> {
  const clone = { cloneDir };
  if (!fs.existsSync(path.join(cloneDir, "HEAD")) && !fs.existsSync(path.join(cloneDir, ".git"))) {
    fs.mkdirSync(path.dirname(cloneDir), { recursive: true, mode: 0o700 });
    await runGit(null, ["clone", "--no-checkout", "--quiet", "--", url, cloneDir], { cwd: path.dirname(cloneDir), access });
  } else {
    await git(clone, ["remote", "set-url", "origin", url]);
  }
  await git(clone, ["fetch", "--quiet", "origin", "--prune"], access);
}

/** Commits whatever the agent left uncommitted, so the branch holds all of a run's work. */
export async function commitAll(worktree: Worktree, message: string): Promise<boolean> {
  await git(worktree, ["add", "-A"]);
  const staged = await git(worktree, ["diff", "--cached", "--name-only", "--no-ext-diff", "--no-textconv"]);
  if (!staged.trim()) return false;
  await git(worktree, ["commit", "--quiet", "--no-verify", "-m", message]);
  return true;
}

/** The branch's changes against the point where it left the default branch. */
export async function branchChanges(worktree: Worktree, defaultBranch: string): Promise<BranchChanges> {
  const base = await mergeBase(worktree, defaultBranch);
  const files = parseNumstat(await git(worktree, ["diff", "--no-ext-diff", "--no-textconv", "-M", "--numstat", "-z", `${base}..HEAD`]));
  return {
    commitSha: (await git(worktree, ["rev-parse", "HEAD"])).trim(),
    filesChanged: files.length,
    linesAdded: files.reduce((sum, file) => sum + file.additions, 0),
    linesRemoved: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}

export type MergeResult = { state: "clean" } | { state: "conflicted"; files: string[] };

/**
 * Brings the task's branch up to date with its remote copy, and merges the default branch into it
 * (the remote's branches as last fetched: the runner fetches before each run). A clean merge is
 * committed at once; a conflicted one is left in progress for an agent.
 */
export async function mergeDefaultBranch(worktree: Worktree, branch: string, defaultBranch: string): Promise<MergeResult> {
  if (await hasRef(worktree, `refs/remotes/origin/${branch}`)) await git(worktree, ["merge", "--quiet", "--ff-only", `origin/${branch}`]);
  // A conflicted merge exits non-zero: the outcome is read from the repository rather than from the exit.
  const failure = await git(worktree, ["merge", "--quiet", "--no-ff", "--no-edit", `origin/${defaultBranch}`]).then(
    () => null,
    (error: Error) => error,
  );
  const files = (await git(worktree, ["diff", "--name-only", "--diff-filter=U", "--no-ext-diff", "--no-textconv"]))
    .split("\n")
    .filter(Boolean);
  if (files.length > 0) return { state: "conflicted", files };
  const missing = (await git(worktree, ["rev-list", "--count", `HEAD..origin/${defaultBranch}`])).trim();
  if (missing !== "0") throw failure ?? new Error(`Merging ${defaultBranch} into ${branch} did not complete`);
  return { state: "clean" };
}

/** Concludes a merge the agent resolved; refuses while a marker remains. */
export async function concludeMerge(worktree: Worktree, files: string[]): Promise<void> {
  const left = await filesWithMarkers(worktree.dir, files);
  if (left.length > 0) throw new Error(`Conflict markers remain in ${left.join(", ")}`);
  await git(worktree, ["add", "-A"]);
  await git(worktree, ["commit", "--quiet", "--no-verify", "--no-edit"]);
}

export async function abortMerge(worktree: Worktree): Promise<void> {
  await git(worktree, ["merge", "--abort"]).catch(missing);
}

/** The branch checked out in the worktree ("HEAD" when detached). */
export async function currentBranch(worktree: Worktree): Promise<string> {
  return (await git(worktree, ["rev-parse", "--abbrev-ref", "HEAD"])).trim();
}

/** Forgets worktrees of the old layout whose directories are gone (lib/git/task-repository.ts replaced them). */
export async function pruneWorktrees(cloneDir: string): Promise<void> {
  await git({ cloneDir }, ["worktree", "prune"]);
}

/** `tb/<number>-<slug of the title>`: readable, and unique through the task number. */
export function taskBranchName(number: number, title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug ? `tb/${number}-${slug}` : `tb/${number}`;
}

/** A ref git does not have (rev-parse --quiet exits 1); a refusal to run git is never taken for one. */
function missing(error: unknown): string {
  if (error instanceof GitRefused) throw error;
  return "";
}

async function mergeBase(worktree: Worktree, defaultBranch: string): Promise<string> {
  return (await git(worktree, ["merge-base", "HEAD", `origin/${defaultBranch}`])).trim();
}

async function hasRef(place: GitPlace, ref: string): Promise<boolean> {
  const sha = await git(place, ["rev-parse", "--verify", "--quiet", ref]).catch(missing);
  return sha.trim().length > 0;
}

/** The remote's branch names (`git ls-remote --heads`), with no prompt for credentials. */
export async function remoteHeads(url: string, access?: RemoteAccess): Promise<string[]> {
  const output = await runGit(null, ["ls-remote", "--heads", "--", url], { access, timeoutMs: LS_REMOTE_TIMEOUT_MS });
  return output
    .split("\n")
    .map((line) => line.split("\t")[1]?.replace(/^refs\/heads\//, ""))
    .filter((name): name is string => Boolean(name));
}

/** True while a merge waits to be concluded in the worktree (MERGE_HEAD exists). */
export async function mergeInProgress(worktree: Worktree): Promise<boolean> {
  return hasRef(worktree, "MERGE_HEAD");
}

/** Files that differ from HEAD in the worktree, staged or not, and new files: where markers could hide. */
export async function changedFiles(worktree: Worktree): Promise<string[]> {
  const tracked = await git(worktree, ["diff", "--name-only", "--no-ext-diff", "--no-textconv", "-z", "HEAD"]);
  const untracked = await git(worktree, ["ls-files", "--others", "--exclude-standard", "-z"]);
  return [...new Set([...tracked.split("\0"), ...untracked.split("\0")].filter(Boolean))];
}

/** Whether `ref` is part of HEAD's history (a merge of it was completed). */
export async function containsRef(worktree: Worktree, ref: string): Promise<boolean> {
  const [head, other] = await Promise.all([git(worktree, ["rev-parse", "HEAD"]), git(worktree, ["rev-parse", ref])]);
  return (await git(worktree, ["merge-base", head.trim(), other.trim()])).trim() === other.trim();
}

/** The sha of a ref in the clone or a worktree, or null when there is no such ref. */
export async function refSha(place: GitPlace, ref: string): Promise<string | null> {
  const sha = (await git(place, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(missing)).trim();
  return sha || null;
}

/** Puts the worktree's branch back at `sha`, dropping what came after (a merge that failed its checks). */
export async function resetTo(worktree: Worktree, sha: string): Promise<void> {
  await git(worktree, ["reset", "--hard", "--quiet", sha]);
}
