import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { commitAll, mergeInProgress } from "@/lib/git/task-worktree";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { concludeFix } from "@/lib/git/workdir/fix-conflicts-flow";
import { recordRunChanges } from "@/lib/git/workdir/record-run-changes";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { lastLine, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { measureWorktree } from "@/lib/worktrees/worktree-records";

// After the agent: what it changed becomes a commit on the task's branch (by the board, so it is
// never lost with a cleaned-up worktree), and the branch's changes against its base are recorded
// on the task run. A conflict fix concludes its merge instead (fix-conflicts-flow). Nothing is
// pushed here for ordinary runs: opening a pull request pushes (docs/agents.md).

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
  if (!fs.existsSync(path.join(cwd, ".git"))) return {}; // a scratch directory: no repository
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId: execution.workspaceId } });
  const remote = await gitRemoteFor(db, execution.workspaceId);
  const task = await db.task.findUnique({ where: { id: execution.taskId }, select: { branch: true, number: true, title: true } });
  if (!repository || !remote || !task?.branch) return {};
  const context = { db, execution, dir: cwd, branch: task.branch, defaultBranch: repository.defaultBranch, remote, log };

  let result: { failed?: string } = {};
  try {
    if (execution.trigger === RUN_TRIGGER.fix_conflicts) {
      result = await concludeFix(context, agentSucceeded);
    } else if (!(await mergeInProgress(cwd))) {
      const run = await db.taskRun.findUnique({ where: { id: execution.taskRunId }, select: { attemptNumber: true } });
      const message = `#${task.number} ${task.title}\n\nRun ${run?.attemptNumber ?? ""} of task ${execution.taskId} (execution ${execution.id}).`;
      if (await commitAll(cwd, message)) await log("git", { step: "commit", message: `Committed the agent's changes on ${task.branch}` });
    }
    await recordRunChanges(db, execution, cwd, repository.defaultBranch);
  } catch (error) {
    result = { failed: `git: ${lastLine((error as Error).message)}` };
  }
  await measureWorktree(db, execution.taskId, cwd).catch(() => {});
  return result;
}
