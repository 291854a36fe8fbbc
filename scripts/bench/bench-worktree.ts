// `npm run bench:worktree`: how long a task's first worktree takes on a repository of 10,000 files
// (goal ≤ 1 s), and a second task's, against a bare repository on local disk; and the rest of a
// run's git work around the agent: the fetch before it (prepareJobWorkdir), and after it the commit,
// the branch's changes and the worktree's disk use (concludeJobWorkdir). Prints two tables.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { branchChanges, commitAll, syncClone } from "../../lib/git/task-worktree";
import { ensureTaskRepository, fetchTaskBranch, taskPlace } from "../../lib/git/task-repository";
import { directoryBytes } from "../../lib/worktrees/worktree-records";

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-worktree-"));
try {
  const seed = path.join(root, "seed");
  const remote = path.join(root, "remote.git");
  execFileSync("git", ["init", "-q", "-b", "main", seed]);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(seed, `src/m${i % 100}`);
    if (i < 100) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd });
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "seed");
  execFileSync("git", ["clone", "-q", "--bare", seed, remote]);

  const clone = path.join(root, "clone");
  // A task's own repository (lib/git/task-repository.ts), as the runner makes it.
  const repo = (i: number) => ({ clone, gitDir: path.join(root, "task-git", String(i)), dir: path.join(root, "wt", String(i)) });
  let started = performance.now();
  await syncClone(remote, clone);
  const cloneMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    started = performance.now();
    await ensureTaskRepository(repo(i), `tb/${i}-bench`, "main");
    times.push(performance.now() - started);
  }
  started = performance.now();
  await ensureTaskRepository(repo(0), "tb/0-bench", "main");
  const reuseMs = performance.now() - started;
  const fetches: number[] = [];
  const concludes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    started = performance.now();
    await syncClone(remote, clone);
    fetches.push(performance.now() - started);
    const dir = path.join(root, "wt", String(i));
    fs.writeFileSync(path.join(dir, "src/m0/f0.ts"), `export const changed = ${i};\n`);
    started = performance.now();
    await commitAll(taskPlace(repo(i)), `run ${i}`);
    const changes = await branchChanges(taskPlace(repo(i)), "main");
    await fetchTaskBranch(repo(i), `tb/${i}-bench`, changes.commitSha);
    await directoryBytes(dir);
    concludes.push(performance.now() - started);
  }
  fetches.sort((a, b) => a - b);
  concludes.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  console.log(`| files | first clone | worktree (median of ${RUNS}) | worst | reuse of an existing worktree |`);
  console.log(`|---:|---:|---:|---:|---:|`);
  console.log(
    `| ${FILES} | ${cloneMs.toFixed(0)} ms | ${times[Math.floor(RUNS / 2)].toFixed(0)} ms | ${times.at(-1)!.toFixed(0)} ms | ${reuseMs.toFixed(1)} ms |`,
  );
  console.log("");
  console.log(`| files | fetch before a run (median) | commit + changes + disk use after a run (median) | worst |`);
  console.log(`|---:|---:|---:|---:|`);
  console.log(
    `| ${FILES} | ${fetches[Math.floor(RUNS / 2)].toFixed(0)} ms | ${concludes[Math.floor(RUNS / 2)].toFixed(0)} ms | ${concludes.at(-1)!.toFixed(0)} ms |`,
  );
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
