import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { commitAll, mergeInProgress } from "@/lib/git/task-worktree";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { concludeFix } from "@/lib/git/workdir/fix-conflicts-flow";
import { recordRunChanges } from "@/lib/git/workdir/record-run-changes";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { lastLine, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { recordTaskDiff } from "@/lib/git/worktree/store-task-diff";
import { measureWorktree } from "@/lib/worktrees/worktree-records";

// After the agent: what it changed becomes a commit on the task's branch (by the board, so it is
// never lost with a cleaned-up worktree), the branch's changes against its base are recorded on the
// task run, and its diff is stored for GET …/diff (lib/git/branch-diff.ts). A conflict fix concludes
// its merge instead (fix-conflicts-flow). Nothing is pushed here for ordinary runs: opening a pull
// request pushes (docs/agents.md). Every git command checks the worktree first (lib/git/run-git.ts):
// an agent that tampered with `.git` or the repository's configuration fails the run in words.

/**
 * `agentSucceeded` false (the agent failed, was cancelled or timed out): its partial work is still
 * committed on the branch, but a conflict fix's merge is aborted. Returns `failed` with the reason
 * in words when the run must fail although the agent succeeded.
 */
export async function concludeWorkdir(
  db: Db,
  execution: Execution,
  cwd: string,
  log: WorkdirLog,
  agentSucceeded = true,
): Promise<{ failed?: string }> {
  // A scratch directory: no repository (a `.git` an agent replaced by a link is still checked below).
  if (!fs.lstatSync(path.join(cwd, ".git"), { throwIfNoEntry: false })) return {};
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId: execution.workspaceId } });
  const remote = await gitRemoteFor(db, execution.workspaceId);
  const task = await db.task.findUnique({ where: { id: execution.taskId }, select: { branch: true, number: true, title: true } });
  if (!repository || !remote || !task?.branch) return {};
  const cloneDir = repositoryCloneDir(execution.workspaceId);
  const worktree = { cloneDir, dir: cwd };
  const context = { db, execution, cloneDir, dir: cwd, branch: task.branch, defaultBranch: repository.defaultBranch, remote, log };

  let result: { failed?: string } = {};
  try {
    if (execution.trigger === RUN_TRIGGER.fix_conflicts) {
      result = await concludeFix(context, agentSucceeded);
    } else if (!(await mergeInProgress(worktree))) {
      const run = await db.taskRun.findUnique({ where: { id: execution.taskRunId }, select: { attemptNumber: true } });
      const message = `#${task.number} ${task.title}\n\nRun ${run?.attemptNumber ?? ""} of task ${execution.taskId} (execution ${execution.id}).`;
      if (await commitAll(worktree, message))
        await log("git", { step: "commit", message: `Committed the agent's changes on ${task.branch}` });
    }
    await recordRunChanges(db, execution, worktree, repository.defaultBranch);
  } catch (error) {
    result = { failed: `git: ${lastLine((error as Error).message)}` };
  }
  await recordTaskDiff(db, execution, worktree, repository.defaultBranch, log);
  await measureWorktree(db, execution.taskId, cwd).catch(() => {});
  return result;
}
