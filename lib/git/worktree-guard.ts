import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config";
import { GitRefused } from "@/lib/git/git-refused";

// What is checked before git runs in a clone or a task's worktree, and the configuration every
// command gets on its command line (docs/git-safety.md). The worktree's `.git` is a one-line file an
// agent can rewrite to point at a git directory of its own (with a core.fsmonitor command, say), so
// git is never left to discover its directory: GIT_DIR is the directory the clone holds for that
// worktree (the one whose `gitdir` file names the worktree), and `.git` must still say so. The
// repository's own configuration (`.git/config`, `config.worktree`) is read by git whatever the
// environment says, and an agent without a sandbox can write it: keys git or the board never write
// there (a filter or textconv driver, core.hooksPath, an include, a URL rewrite, an upload-pack
// command…) make the command refuse, in words, before git runs; the settings that matter most are
// also overridden on every command line, which wins over any file.

/** A clone of the board (`cloneDir`), or, with `dir`, one of its task worktrees. */
export interface GitPlace {
  cloneDir: string;
  dir?: string;
}

/** What the repository's configuration may hold: what `git clone` and `git worktree add --track` write. */
const ALLOWED_KEYS = new Set([
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.logallrefupdates",
  "core.ignorecase",
  "core.precomposeunicode",
  "core.symlinks",
  "remote.origin.url",
  "remote.origin.fetch",
]);
const ALLOWED_PATTERNS = [/^branch\..+\.(remote|merge)$/];

/** The git directory and work tree of `place`, after checking the worktree's `.git` still points there. */
export function gitDirs(place: GitPlace): GitDirs {
  const common = commonGitDir(place.cloneDir);
  if (!place.dir) return { gitDir: common, commonDir: common, workTree: place.cloneDir };
  const dir = realDirectory(place.dir, "The task's worktree");
  const dotGit = path.join(dir, ".git");
  const gitDir = expectedGitDir(common, dotGit);
  if (!gitDir) throw new GitRefused(`The clone ${place.cloneDir} has no worktree at ${dir}: git was not run in it`);
  const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  const text = stat?.isFile() ? fs.readFileSync(dotGit, "utf8") : null;
  if (text !== `gitdir: ${gitDir}\n`)
    throw new GitRefused(
      `The worktree's .git no longer points at the git directory the board made for it (${gitDir}): ` +
        "something in the run changed it, so git was not run in the worktree",
    );
  return { gitDir, commonDir: common, workTree: dir };
}

export interface GitDirs {
  gitDir: string;
  /** The clone's git directory, where the configuration shared by its worktrees lives. */
  commonDir: string;
  workTree: string;
}

/**
 * Before a run: points the worktree's `.git` back at its git directory when an earlier run changed
 * it (the clone says where it belongs). True when it had to be restored.
 */
export function restoreGitfile(place: Required<GitPlace>): boolean {
  const dir = realDirectory(place.dir, "The task's worktree");
  const dotGit = path.join(dir, ".git");
  const gitDir = expectedGitDir(commonGitDir(place.cloneDir), dotGit);
  if (!gitDir) return false;
  const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  const wanted = `gitdir: ${gitDir}\n`;
  if (stat?.isFile() && fs.readFileSync(dotGit, "utf8") === wanted) return false;
  fs.rmSync(dotGit, { recursive: true, force: true });
  fs.writeFileSync(dotGit, wanted, { flag: "wx" });
  return true;
}

/** The clone's own git directory: its `.git` directory (a real one, not a link), or the clone itself when bare. */
export function commonGitDir(cloneDir: string): string {
  const clone = realDirectory(cloneDir, "The repository's clone");
  const dotGit = fs.lstatSync(path.join(clone, ".git"), { throwIfNoEntry: false });
  if (dotGit?.isDirectory()) return path.join(clone, ".git");
  if (!dotGit && fs.existsSync(path.join(clone, "HEAD"))) return clone;
  throw new GitRefused(`The clone ${cloneDir} has no git directory of its own: git was not run in it`);
}

function realDirectory(dir: string, what: string): string {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new GitRefused(`${what} ${dir} is missing or not a directory: git was not run in it`);
  return fs.realpathSync(dir);
}

/**
 * The git directory the worktree whose `.git` is `dotGit` belongs to: the entry of `<common>/worktrees/`
 * that names it (a `git worktree` of a clone), or else, for a task's own repository
 * (lib/git/task-repository.ts), the git directory the caller named as the place's clone. Never what
 * `.git` itself says.
 */
function expectedGitDir(common: string, dotGit: string): string | null {
  const root = path.join(common, "worktrees");
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const back = path.join(root, name, "gitdir");
    if (fs.existsSync(back) && fs.readFileSync(back, "utf8").trim() === dotGit) return path.join(root, name);
  }
  return isSeparateGitDir(common) ? common : null;
}

/** A task repository's git directory: not bare, not a linked worktree's, and holding no working tree of its own. */
function isSeparateGitDir(gitDir: string): boolean {
  return path.basename(gitDir) !== ".git" && !fs.existsSync(path.join(gitDir, "commondir")) && fs.existsSync(path.join(gitDir, "HEAD"));
}

/** `-c` options every git command gets: they win over the repository's configuration. */
export function hardenedConfig(): string[] {
  return [
    ["core.hooksPath", emptyHooksDir()],
    ["core.fsmonitor", "false"],
    ["core.attributesFile", "/dev/null"],
    ["diff.external", ""],
    ["protocol.ext.allow", "never"],
    ["protocol.fd.allow", "never"],
  ].flatMap(([key, value]) => ["-c", `${key}=${value}`]);
}

let hooksDir: string | null = null;

/**
 * An empty, read-only directory for core.hooksPath, in DATA_DIR (which no sandboxed agent sees);
 * a fresh one is made when it is found changed.
 */
export function emptyHooksDir(): string {
  if (hooksDir && isEmptyReadOnly(hooksDir)) return hooksDir;
  fs.mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
  const fixed = path.join(dataDir(), "git-no-hooks");
  fs.mkdirSync(fixed, { mode: 0o555, recursive: true }); // no-op when it exists (another instance may have made it)
  if (isEmptyReadOnly(fixed)) return (hooksDir = fixed);
  hooksDir = fs.mkdtempSync(path.join(dataDir(), "git-no-hooks-"));
  fs.chmodSync(hooksDir, 0o555);
  return hooksDir;
}

function isEmptyReadOnly(dir: string): boolean {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  return Boolean(stat?.isDirectory() && (stat.mode & 0o222) === 0 && fs.readdirSync(dir).length === 0);
}

/** Configuration files found clean, by their identity and change time (which no user can set back). */
const checked = new Map<string, string>();

/**
 * Refuses, in words, when the repository's own configuration (scopes local and worktree) holds a key
 * outside ALLOWED_KEYS. `listConfig` runs `git <args>` in the place (reading configuration runs
 * nothing). Files unchanged since they were last found clean are not read again.
 */
export async function checkRepositoryConfig(dirs: GitDirs, listConfig: (args: string[]) => Promise<string>): Promise<void> {
  const stamp = [path.join(dirs.commonDir, "config"), path.join(dirs.gitDir, "config.worktree")].map(fileStamp).join("|");
  if (checked.get(dirs.gitDir) === stamp) return;
  const foreign = repositoryConfigProblems(await listConfig(["config", "--list", "--show-scope", "-z"]));
  if (foreign.length === 0) {
    checked.set(dirs.gitDir, stamp);
    return;
  }
  checked.delete(dirs.gitDir);
  throw new GitRefused(
    `The repository's git configuration holds ${foreign.join(", ")}, which neither git nor the board writes there ` +
      "(a hook, filter, textconv or command could run): git was not run. Remove the entries or reconnect the repository.",
  );
}

/** A file's identity and last change: device, inode, size and ctime (set by the kernel on every write or rename). */
function fileStamp(file: string): string {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeNs}` : "none";
}

/** `git config --list --show-scope -z` → the keys of the local and worktree scopes that are not allowed. */
export function repositoryConfigProblems(output: string): string[] {
  const parts = output.split("\0");
  const keys = new Set<string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [scope, entry] = [parts[i], parts[i + 1]];
    if (scope !== "local" && scope !== "worktree") continue;
    const key = entry.split("\n")[0].toLowerCase();
    if (!ALLOWED_KEYS.has(key) && !ALLOWED_PATTERNS.some((pattern) => pattern.test(key))) keys.add(key);
  }
  return [...keys];
}
