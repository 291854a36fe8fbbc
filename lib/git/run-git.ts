import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gitEnvironment, gitHome } from "@/lib/git/git-environment";
import { checkRepositoryConfig, gitDirs, hardenedConfig, type GitPlace } from "@/lib/git/worktree-guard";
import { materializeAccess, type RemoteAccess } from "@/lib/git/remote-access";

// The one way git runs on a repository of the board (docs/git-safety.md). An agent writes to its
// worktree, and without a sandbox to anything its user may write: so before each command the place
// is checked (the worktree's `.git` still points at the git directory the clone made for it, and
// the repository's own configuration holds only what git and the board write there), and the
// command then runs with an explicit GIT_DIR and GIT_WORK_TREE, with hooks, fsmonitor, external
// diffs, textconv and filters off on its command line (which wins over the repository's
// configuration), in an environment with no system or global configuration and no secret. A
// remote's credentials reach git only through a private file named on the command line, for the
// one command (lib/git/remote-access.ts). A pure function of paths and credentials: no database.

export interface RunGitOptions {
  /** How to reach the remote (a pin, credentials), for commands that talk to it. */
  access?: RemoteAccess;
  /** The working directory when there is no repository yet (clone, ls-remote). */
  cwd?: string;
  input?: string;
  /** Standard input read from this file from byte `start` on, instead of `input` (a bundle's pack: lib/git/bundle/store-branch-bundle.ts). */
  inputFile?: { path: string; start: number };
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** Runs `git <args>` at `place` (null: outside any repository) and resolves with its standard output. */
export async function runGit(place: GitPlace | null, args: string[], options: RunGitOptions = {}): Promise<string> {
  const dirs = place ? gitDirs(place) : null;
  const env: Record<string, string> = { ...gitEnvironment(), GIT_EDITOR: "true", GIT_PAGER: "cat" };
  // The common and object directories named too: a `commondir` file an agent wrote into its git
  // directory would otherwise send git to another repository's refs and objects.
  if (dirs)
    Object.assign(env, {
      GIT_DIR: dirs.gitDir,
      GIT_WORK_TREE: dirs.workTree,
      GIT_COMMON_DIR: dirs.commonDir,
      GIT_OBJECT_DIRECTORY: path.join(dirs.commonDir, "objects"),
    });
  // Outside a repository (clone, ls-remote) git must not find one around its directory either:
  // the server's own checkout, say, when DATA_DIR lies inside it.
  const cwd = dirs?.workTree ?? options.cwd ?? gitHome();
  if (!dirs) env.GIT_CEILING_DIRECTORIES = path.dirname(cwd);
  const pre = hardenedConfig();
  if (dirs) await checkRepositoryConfig(dirs, (configArgs) => spawnGit([...pre, ...configArgs], env, dirs.workTree));
  const access = options.access ? await materializeAccess(options.access) : null;
  try {
    const remoteEnv = access ? { ...env, ...access.env } : env;
    const remoteArgs = access ? access.args : [];
    return await spawnGit([...pre, ...remoteArgs, ...args], remoteEnv, cwd, options);
  } finally {
    access?.dispose();
  }
}

/** A failed git command; `message` is git's own standard error (what the callers parse for auth failures). */
export class GitFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stdout: string,
  ) {
    super(message);
  }
}

function spawnGit(args: string[], env: Record<string, string>, cwd: string, options: RunGitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      if (code === 0) return resolve(stdout);
      const stderr = Buffer.concat(err).toString("utf8").trim();
      const why = signal ? `git ${args.find((a) => !a.startsWith("-") && !a.includes("="))} was killed (${signal})` : `exit ${code}`;
      reject(new GitFailed(stderr || stdout.trim() || why, code, stdout));
    });
    child.stdin.on("error", () => {}); // git exiting early shows in its exit code
    if (!options.inputFile) return child.stdin.end(options.input ?? "");
    const source = fs.createReadStream(options.inputFile.path, { start: options.inputFile.start });
    source.on("error", (error) => {
      child.kill("SIGKILL");
      reject(error);
    });
    source.pipe(child.stdin);
  });
}
