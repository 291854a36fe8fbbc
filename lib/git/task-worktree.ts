import fs from "node:fs";
import path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { gitEnvironment, gitOptions } from "@/lib/git/git-environment";
import { filesWithMarkers } from "@/lib/git/conflict-markers";

// Git for agent runs, through simple-git (which refuses dangerous options and protocols such as
// ext:: in what it passes to git). One clone per workspace (DATA_DIR/repos/<workspace_id>, no
// working tree of its own) holds the remote-tracking branches; each task gets a worktree of its own
// on its own branch, so two tasks never share files. Every command runs in the environment of
// lib/git/git-environment.ts: never the server user's own credentials; a remote's credentials come
// only with its RemoteEnv (lib/git/remote/git-remote-for.ts).

/** Who commits the agent's work; the agent's own commits keep their authors. */
const COMMITTER = ["user.name=Taskboard", "user.email=taskboard@localhost", "commit.gpgsign=false"];
// A first worktree writes every file of the repository; git's parallel checkout (0 = one worker per
// core) writes them from several processes: 10,000 files took ~270 ms with one and ~220 ms with two
// workers here (docs/PERFORMANCE.md, "Task worktrees"). Merges and resets use it too.
const CHECKOUT = ["checkout.workers=0"];
const LS_REMOTE_TIMEOUT_MS = 20_000;

export interface BranchChanges {
  commitSha: string;
  filesChanged: number;
  linesAdded: number;
  linesRemoved: number;
}

/** git's whole environment for a remote (`gitRemoteFor`): gitEnvironment() with the remote's pin and credentials. */
export type RemoteEnv = Record<string, string> | undefined;

/** `remoteEnv` is built by the server (gitEnvironment), never taken from a request. */
function git(dir: string, remoteEnv?: RemoteEnv): SimpleGit {
  const env = remoteEnv ?? gitEnvironment();
  return simpleGit({ ...gitOptions(env), baseDir: dir, config: [...COMMITTER, ...CHECKOUT] }).env(env);
}

/** Clones the repository once, without checking anything out, then fetches every branch. */
export async function syncClone(url: string, cloneDir: string, remoteEnv?: RemoteEnv): Promise<void> {
  if (!fs.existsSync(path.join(cloneDir, "HEAD")) && !fs.existsSync(path.join(cloneDir, ".git"))) {
    fs.mkdirSync(path.dirname(cloneDir), { recursive: true, mode: 0o700 });
    await git(path.dirname(cloneDir), remoteEnv).clone(url, cloneDir, ["--no-checkout"]);
  } else {
    await git(cloneDir).remote(["set-url", "origin", url]);
  }
  await git(cloneDir, remoteEnv).fetch(["origin", "--prune"]);
}

/**
 * The task's worktree at `dir` on `branch`, made on first use: from the remote's branch of that name
 * when it exists (a PR branch made elsewhere), otherwise new from the default branch. A worktree
 * whose directory was deleted is made again from the branch, so no work on the branch is lost.
 */
export async function ensureWorktree(cloneDir: string, dir: string, branch: string, defaultBranch: string): Promise<void> {
  const repo = git(cloneDir);
  if (fs.existsSync(path.join(dir, ".git"))) return;
  await repo.raw(["worktree", "prune"]);
  const local = await hasRef(repo, `refs/heads/${branch}`);
  const remote = await hasRef(repo, `refs/remotes/origin/${branch}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (local) await repo.raw(["worktree", "add", dir, branch]);
  else if (remote) await repo.raw(["worktree", "add", "--track", "-b", branch, dir, `origin/${branch}`]);
  else await repo.raw(["worktree", "add", "--no-track", "-b", branch, dir, `origin/${defaultBranch}`]);
}

/** Commits whatever the agent left uncommitted, so the branch holds all of a run's work. */
export async function commitAll(dir: string, message: string): Promise<boolean> {
  const repo = git(dir);
  await repo.add(["-A"]);
  const staged = await repo.diff(["--cached", "--name-only"]);
  if (!staged.trim()) return false;
  await repo.raw(["commit", "--no-verify", "-m", message]);
  return true;
}

/** The branch's changes against the point where it left the default branch. */
export async function branchChanges(dir: string, defaultBranch: string): Promise<BranchChanges> {
  const repo = git(dir);
  const base = await mergeBase(repo, defaultBranch);
  const summary = await repo.diffSummary([`${base}..HEAD`]);
  return {
    commitSha: (await repo.revparse(["HEAD"])).trim(),
    filesChanged: summary.changed,
    linesAdded: summary.insertions,
    linesRemoved: summary.deletions,
  };
}

/** The unified diff of the branch against the point where it left the default branch. */
export async function branchDiff(dir: string, defaultBranch: string): Promise<string> {
  const repo = git(dir);
  return repo.diff([`${await mergeBase(repo, defaultBranch)}..HEAD`]);
}

export type MergeResult = { state: "clean" } | { state: "conflicted"; files: string[] };

/**
 * Fetches, brings the task's branch up to date with its remote copy, and merges the default branch
 * into it. A clean merge is committed at once; a conflicted one is left in progress for an agent.
 */
export async function mergeDefaultBranch(
  cloneDir: string,
  dir: string,
  branch: string,
  defaultBranch: string,
  remoteEnv?: RemoteEnv,
): Promise<MergeResult> {
  await git(cloneDir, remoteEnv).fetch(["origin", "--prune"]);
  const repo = git(dir);
  if (await hasRef(repo, `refs/remotes/origin/${branch}`)) await repo.raw(["merge", "--ff-only", `origin/${branch}`]);
  // simple-git resolves a git command that exits non-zero without writing to stderr, as a conflicted
  // merge does, so the outcome is read from the repository rather than from the exit.
  const failure = await repo.raw(["merge", "--no-ff", "--no-edit", `origin/${defaultBranch}`]).then(
    () => null,
    (error: Error) => error,
  );
  const files = (await repo.diff(["--name-only", "--diff-filter=U"])).split("\n").filter(Boolean);
  if (files.length > 0) return { state: "conflicted", files };
  const missing = (await repo.raw(["rev-list", "--count", `HEAD..origin/${defaultBranch}`])).trim();
  if (missing !== "0") throw failure ?? new Error(`Merging ${defaultBranch} into ${branch} did not complete`);
  return { state: "clean" };
}

/** Concludes a merge the agent resolved; refuses while a marker remains. */
export async function concludeMerge(dir: string, files: string[]): Promise<void> {
  const left = await filesWithMarkers(dir, files);
  if (left.length > 0) throw new Error(`Conflict markers remain in ${left.join(", ")}`);
  const repo = git(dir);
  await repo.add(["-A"]);
  await repo.raw(["commit", "--no-verify", "--no-edit"]);
}

export async function abortMerge(dir: string): Promise<void> {
  await git(dir)
    .raw(["merge", "--abort"])
    .catch(() => {});
}

/** The branch checked out in the worktree at `dir` ("HEAD" when detached). */
export async function currentBranch(dir: string): Promise<string> {
  return (await git(dir).raw(["rev-parse", "--abbrev-ref", "HEAD"])).trim();
}

/** Removes the worktree's files; the branch stays in the clone (and on the remote once pushed). */
export async function removeWorktree(cloneDir: string, dir: string): Promise<void> {
  if (fs.existsSync(dir)) await git(cloneDir).raw(["worktree", "remove", "--force", dir]);
  await git(cloneDir).raw(["worktree", "prune"]);
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

async function mergeBase(repo: SimpleGit, defaultBranch: string): Promise<string> {
  return (await repo.raw(["merge-base", "HEAD", `origin/${defaultBranch}`])).trim();
}

async function hasRef(repo: SimpleGit, ref: string): Promise<boolean> {
  // Judged by the output: simple-git does not reject a silent non-zero exit.
  const sha = await repo.raw(["rev-parse", "--verify", "--quiet", ref]).catch(() => "");
  return sha.trim().length > 0;
}

/** The remote's branch names (`git ls-remote --heads`), with no prompt for credentials. */
export async function remoteHeads(url: string, remoteEnv?: RemoteEnv): Promise<string[]> {
  const env = remoteEnv ?? gitEnvironment();
  const output = await simpleGit({ ...gitOptions(env), timeout: { block: LS_REMOTE_TIMEOUT_MS } })
    .env(env)
    .listRemote(["--heads", "--", url]);
  return output
    .split("\n")
    .map((line) => line.split("\t")[1]?.replace(/^refs\/heads\//, ""))
    .filter((name): name is string => Boolean(name));
}

/** True while a merge waits to be concluded in the worktree (MERGE_HEAD exists). */
export async function mergeInProgress(dir: string): Promise<boolean> {
  return hasRef(git(dir), "MERGE_HEAD");
}

/** Files that differ from HEAD in the worktree, staged or not, and new files: where markers could hide. */
export async function changedFiles(dir: string): Promise<string[]> {
  const repo = git(dir);
  const tracked = await repo.raw(["diff", "--name-only", "-z", "HEAD"]);
  const untracked = await repo.raw(["ls-files", "--others", "--exclude-standard", "-z"]);
  return [...new Set([...tracked.split("\0"), ...untracked.split("\0")].filter(Boolean))];
}

/** Whether `ref` is part of HEAD's history (a merge of it was completed). */
export async function containsRef(dir: string, ref: string): Promise<boolean> {
  const repo = git(dir);
  const [head, other] = await Promise.all([repo.revparse(["HEAD"]), repo.revparse([ref])]);
  return (await repo.raw(["merge-base", head.trim(), other.trim()])).trim() === other.trim();
}

/** The sha of a ref in the repository at `dir`, or null when there is no such ref. */
export async function refSha(dir: string, ref: string): Promise<string | null> {
  const sha = (
    await git(dir)
      .raw(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])
      .catch(() => "")
  ).trim();
  return sha || null;
}

export interface RangeNumstat {
  baseSha: string;
  headSha: string;
  /** `git diff -M --numstat -z` output: exact paths, "-" counts for binary files. */
  numstat: string;
}

const DIFF = ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "-M"];
/** git treats blobs larger than core.bigFileThreshold as binary without reading them: a huge file is never loaded. */
const bigFiles = (bytes: number) => ["-c", `core.bigFileThreshold=${bytes}`];

/**
 * What `head` (a ref of the clone) changed since it left `origin/<defaultBranch>`, per file, read
 * from the clone itself so it is there even after the task's worktree was cleaned up. Files
 * larger than `maxFileBytes` count as binary (no line counts).
 */
export async function rangeNumstat(cloneDir: string, head: string, defaultBranch: string, maxFileBytes: number): Promise<RangeNumstat> {
  const repo = git(cloneDir);
  const headSha = (await repo.revparse([`${head}^{commit}`])).trim();
  const baseSha = (await repo.raw(["merge-base", headSha, `refs/remotes/origin/${defaultBranch}`])).trim();
  const numstat = await repo.raw([...bigFiles(maxFileBytes), ...DIFF, "--numstat", "-z", baseSha, headSha]);
  return { baseSha, headSha, numstat };
}

/** `git diff -M --raw -z`: each changed file's modes, blob ids and paths; reads no blob. */
export async function rangeRaw(cloneDir: string, baseSha: string, headSha: string): Promise<string> {
  return git(cloneDir).raw([...DIFF, "--raw", "-z", "--no-abbrev", baseSha, headSha]);
}

/** The unified diff between two commits, of the given paths only when `paths` is set (taken literally). */
export async function rangePatch(
  cloneDir: string,
  baseSha: string,
  headSha: string,
  context: number,
  paths?: string[],
  maxFileBytes = 1024 * 1024,
): Promise<string> {
  const limit = paths ? ["--", ...paths.map((file) => `:(literal)${file}`)] : [];
  if (paths && paths.length === 0) return "";
  return git(cloneDir).raw([...bigFiles(maxFileBytes), ...DIFF, `--unified=${context}`, baseSha, headSha, ...limit]);
}

/** Puts the worktree's branch back at `sha`, dropping what came after (a merge that failed its checks). */
export async function resetTo(dir: string, sha: string): Promise<void> {
  await git(dir).raw(["reset", "--hard", "--quiet", sha]);
}
