import type { Db } from "@/lib/db/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { recordEvents } from "@/lib/events/record-events";
import { taskBranchName } from "@/lib/git/task-worktree";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";
import { previousSession } from "@/lib/dispatch/acp-session";
import { apiUrl, timeoutSeconds } from "@/lib/platform/runner-config";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import type { Job } from "@/lib/runner-protocol";
import { storedKeys } from "@/lib/agents/set-agent-key";

// What a claimed execution is to its runner: everything the runner needs and nothing more. The
// credentials in it are the job's own: the agent's token (this workspace, revoked when the run
// ends) and git's environment for this one repository (an installation token or the workspace's
// stored credential, from lib/repositories/git-remote-for.ts).

/** A reason in words why the run cannot be handed out; the claim fails it with this. */
export class JobRefused extends Error {}

export async function buildJob(db: Db, executionId: string, token: string): Promise<Job> {
  const execution = await db.execution.findUniqueOrThrow({
    where: { id: executionId },
    include: { task: { select: { number: true, title: true, prUrl: true, branch: true, prHeadBranch: true } } },
  });
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId: execution.workspaceId } });
  const remote = repository
    ? await gitRemoteFor(db, execution.workspaceId, { job: { executionId } }).catch((error: Error) => {
        throw new JobRefused(error.message);
      })
    : null;
  let branch: string | null = null;
  if (repository && remote) {
    if (execution.trigger === RUN_TRIGGER.fix_conflicts) {
      branch = execution.task.branch ?? execution.task.prHeadBranch;
      if (!branch) throw new JobRefused("The task has no branch to merge into");
      const foreign = foreignBranchReason(branch, execution.task, repository.defaultBranch);
      if (foreign) throw new JobRefused(foreign);
    } else {
      branch = execution.task.branch ?? (await storeBranch(db, execution, taskBranchName(execution.task.number, execution.task.title)));
    }
  }
  const api = apiUrl();
  return {
    execution_id: execution.id,
    task_run_id: execution.taskRunId,
    workspace_id: execution.workspaceId,
    task: { id: execution.taskId, number: execution.task.number, title: execution.task.title, pr_url: execution.task.prUrl },
    trigger: execution.trigger,
    session_name: execution.sessionName,
    instructions: execution.instructions,
    log_seq: execution.lineCount,
    agent_id: execution.agentId,
    agent: (execution.agentProfile as Job["agent"]) ?? null,
    resume_session_id: await previousSession(db, execution),
    token,
    api_url: api,
    mcp_url: `${api}/api/mcp`,
    env: {
      // The model keys stored on the run's profile first: the run's own variables always win.
      ...(await storedKeys(db, execution.agentId)),
      TASKBOARD_INSTRUCTIONS: execution.instructions,
      TASKBOARD_TRIGGER: execution.trigger,
      TASKBOARD_TASK_ID: execution.taskId,
      TASKBOARD_TASK_TITLE: execution.task.title,
      TASKBOARD_PR_URL: execution.task.prUrl ?? "",
      TASKBOARD_WORKSPACE_ID: execution.workspaceId,
      TASKBOARD_EXECUTION_ID: execution.id,
      TASKBOARD_SESSION_NAME: execution.sessionName,
      TASKBOARD_API_URL: api,
      TASKBOARD_API_TOKEN: token,
    },
    timeout_seconds: timeoutSeconds(),
    lease_seconds: runnerLeaseSeconds(),
    repository:
      repository && remote && branch ? { url: remote.url, default_branch: repository.defaultBranch, branch, access: remote.access } : null,
  };
}

/**
 * The task's branch, `tb/<number>-<slug>`, stored by its first run. Only a task still without a
 * branch is changed, so a PATCH racing the run wins (and its branch is the one used).
 */
async function storeBranch(db: Db, execution: { taskId: string; workspaceId: string }, name: string): Promise<string> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.task.updateMany({ where: { id: execution.taskId, branch: null }, data: { branch: name } });
    if (count > 0) {
      await recordEvents(tx, execution.workspaceId, [{ type: "task.updated", taskId: execution.taskId }]);
      return name;
    }
    const task = await tx.task.findUniqueOrThrow({ where: { id: execution.taskId }, select: { branch: true } });
    return task.branch ?? name;
  });
}
