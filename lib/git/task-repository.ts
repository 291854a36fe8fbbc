import fs from "node:fs";
import path from "node:path";
import { GitRefused } from "@/lib/git/git-refused";
import { runGit } from "@/lib/git/run-git";
import { refSha } from "@/lib/git/task-worktree";
import { commonGitDir, restoreGitfile } from "@/lib/git/worktree-guard";

// A task's own repository on the runner (docs/git-safety.md, "One repository per task"). The
// workspace's clone holds the remote's branches; each task gets a git directory of its own
// (`<base>/task-git/<workspace_id>/<task_id>`) whose objects borrow the clone's through
// `objects/info/alternates`, and its worktree's `.git` file points there. An agent under the sandbox
// sees its worktree, that git directory (its config and alternates read-only) and the clone's
// objects read-only: it can move, make or delete any ref of its own repository, and none of the
// clone's or another task's. After the run the runner takes exactly the task's branch back into the
// clone (fetchTaskBranch). Every path here is the runner's own choice, recorded when it made the
// repository; no file the agent can write ever names one.

export interface TaskRepository {
  /** The workspace's clone (no working tree of its own). */
  clone: string;
  /** The task's git directory. */
  gitDir: string;
  /** The task's worktree: the agent's working directory. */
  dir: string;
}

/** Where the runner keeps a task's git directory, under its own base directory. */
export function taskGitDir(base: string, workspaceId: string, taskId: string): string {
  return path.join(base, "task-git", workspaceId, taskId);
}

/** The clone's object directory, which every task repository of the workspace borrows read-only. */
export function cloneObjects(clone: string): string {
  return path.join(commonGitDir(clone), "objects");
}

/** The git place of the task's worktree, for lib/git/task-worktree.ts's functions. */
export function taskPlace(repo: TaskRepository): { cloneDir: string; dir: string } {
  return { cloneDir: repo.gitDir, dir: repo.dir };
}

/**
 * Makes the task's repository on first use, on `branch`: the clone's local copy of the branch when it
 * has one (an earlier run's work), else the remote's branch, else a new branch from the default
 * branch. A worktree of the old layout (a `git worktree` of the clone) is replaced by one. Each call
 * then brings the remote's branches from the clone and puts the `.git` file and alternates back to
 * what the runner wrote. Returns whether the repository was made now, and whether anything had to
 * be put back.
 */
export async function ensureTaskRepository(
  repo: TaskRepository,
  branch: string,
  defaultBranch: string,
): Promise<{ made: boolean; restored: boolean }> {
  const made = !isTaskRepository(repo);
  if (made) await makeTaskRepository(repo);
  const restored = restoreTaskRepository(repo);
  const fromClone = ["+refs/remotes/origin/*:refs/remotes/origin/*"];
  if (made && (await hasCommit({ cloneDir: repo.clone }, `refs/heads/${branch}`)))
    fromClone.push(`+refs/heads/${branch}:refs/heads/${branch}`);
  await runGit({ cloneDir: repo.gitDir }, ["fetch", "--quiet", "--no-tags", "--", repo.clone, ...fromClone]);
  if (made) {
    const place = taskPlace(repo);
    if (await hasCommit(place, `refs/heads/${branch}`)) await runGit(place, ["checkout", "--quiet", branch]);
    else {
      const start = (await hasCommit(place, `refs/remotes/origin/${branch}`)) ? `origin/${branch}` : `origin/${defaultBranch}`;
      await runGit(place, ["checkout", "--quiet", "--no-track", "-b", branch, start]);
    }
  }
  return { made, restored };
}

/**
 * Puts the worktree's `.git` file, the repository's alternates and the absence of a `commondir`
 * back to what the runner wrote, before a run (an agent may have changed any of them; git never
 * followed them, lib/git/worktree-guard.ts). True when anything had to be put back.
 */
export function restoreTaskRepository(repo: TaskRepository): boolean {
  const changed = changedParts(repo);
  if (changed.commondir) fs.rmSync(path.join(repo.gitDir, "commondir"), { recursive: true, force: true });
  if (changed.alternates) {
    fs.rmSync(alternatesFile(repo), { recursive: true, force: true });
    fs.writeFileSync(alternatesFile(repo), wantedAlternates(repo), { flag: "wx", mode: 0o600 });
  }
  const gitfile = restoreGitfile(taskPlace(repo));
  return gitfile || changed.commondir || changed.alternates;
}

/**
 * After a run, before the runner's git: refuses in words when the agent changed what the runner
 * wrote (the run fails; the next run puts it back). The `.git` file is checked by every git command.
 */
export function checkTaskRepository(repo: TaskRepository): void {
  const changed = changedParts(repo);
  const parts = [changed.commondir && "a commondir file", changed.alternates && "objects/info/alternates"].filter(Boolean);
  if (parts.length > 0)
    throw new GitRefused(
      `The task's git directory ${repo.gitDir} gained or changed ${parts.join(" and ")}: something in the run changed it, so git was not run`,
    );
}

function changedParts(repo: TaskRepository): { commondir: boolean; alternates: boolean } {
  // A `commondir` would make git take the directory for a linked worktree of another repository.
  const commondir = fs.lstatSync(path.join(repo.gitDir, "commondir"), { throwIfNoEntry: false }) !== undefined;
  const stat = fs.lstatSync(alternatesFile(repo), { throwIfNoEntry: false });
  const alternates = !(stat?.isFile() && fs.readFileSync(alternatesFile(repo), "utf8") === wantedAlternates(repo));
  return { commondir, alternates };
}

const alternatesFile = (repo: TaskRepository) => path.join(repo.gitDir, "objects", "info", "alternates");
const wantedAlternates = (repo: TaskRepository) => `${cloneObjects(repo.clone)}\n`;

/**
 * Takes the task's branch, at the commit the run recorded, into the clone, so the clone keeps every
 * task's work (the embedded runner's clone is the server's). Only `refs/heads/<branch>` of the clone
 * moves, and only to `sha`: nothing else the agent did in its repository reaches the clone.
 */
export async function fetchTaskBranch(repo: TaskRepository, branch: string, sha: string): Promise<void> {
  const clone = { cloneDir: repo.clone };
  const scratch = `refs/taskboard/incoming/${path.basename(repo.gitDir)}`;
  await runGit(clone, ["fetch", "--quiet", "--no-tags", "--", repo.gitDir, `+refs/heads/${branch}:${scratch}`]);
  try {
    const fetched = (await runGit(clone, ["rev-parse", "--verify", `${scratch}^{commit}`])).trim();
    if (fetched !== sha) throw new GitRefused(`The task's branch moved after the run was recorded (${sha} → ${fetched}): it was not taken`);
    await runGit(clone, ["update-ref", `refs/heads/${branch}`, sha]);
  } finally {
    await runGit(clone, ["update-ref", "-d", scratch]).catch(() => {});
  }
}

/** Removes the task's worktree and git directory (its branch stays in the clone, and on the remote once pushed). */
export function removeTaskRepository(repo: Pick<TaskRepository, "gitDir" | "dir">): void {
  fs.rmSync(repo.dir, { recursive: true, force: true });
  fs.rmSync(repo.gitDir, { recursive: true, force: true });
}

function isTaskRepository(repo: TaskRepository): boolean {
  const head = fs.lstatSync(path.join(repo.gitDir, "HEAD"), { throwIfNoEntry: false });
  return Boolean(head?.isFile()) && fs.lstatSync(repo.dir, { throwIfNoEntry: false })?.isDirectory() === true;
}

async function makeTaskRepository(repo: TaskRepository): Promise<void> {
  // A worktree of the old layout: its work is on the clone's branch already (each run committed it).
  if (fs.existsSync(repo.dir)) {
    await runGit({ cloneDir: repo.clone }, ["worktree", "remove", "--force", repo.dir]).catch(() => {});
    fs.rmSync(repo.dir, { recursive: true, force: true });
    await runGit({ cloneDir: repo.clone }, ["worktree", "prune"]);
  }
  fs.rmSync(repo.gitDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(repo.gitDir), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.dirname(repo.dir), { recursive: true, mode: 0o700 });
  await runGit(null, ["init", "--quiet", "--template=", "--separate-git-dir", repo.gitDir, repo.dir], { cwd: path.dirname(repo.dir) });
  fs.mkdirSync(path.join(repo.gitDir, "objects", "info"), { recursive: true });
}

/** Whether `ref` names a commit at `place` (lib/git/task-worktree.ts refSha). */
async function hasCommit(place: { cloneDir: string; dir?: string }, ref: string): Promise<boolean> {
  return (await refSha(place, ref)) !== null;
}
