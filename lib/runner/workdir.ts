import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import type { LogWriter } from "@/lib/runs/append-log-entries";
import { agentWorkdir } from "@/lib/runner/config";

// The runner's two integration points with the task's working tree. This is the stand-in until the
// per-task git worktrees land (the worktree owner replaces this file, keeping the signatures): the
// agent works in AGENT_WORKDIR's scratch directory, and nothing is concluded afterwards.

export interface PreparedWorkdir {
  /** The agent's working directory (an absolute path). */
  cwd: string;
  /** The task's branch, when the directory is a git worktree. */
  branch: string | null;
  /** Set when there is nothing for the agent to do (a merge that was clean by itself): the run succeeds with this report. */
  skipAgent?: { report: string };
  /** Replaces the execution's instructions (e.g. the conflict template plus the conflicted files). */
  instructions?: string;
}

/** Before the agent starts; throwing fails the run with the error's message. */
export type PrepareWorkdir = (db: Db, execution: Execution, log: LogWriter) => Promise<PreparedWorkdir>;
/** After the agent's process has ended (whatever its verdict); `failed` fails a run that would have succeeded. */
export type ConcludeWorkdir = (db: Db, execution: Execution, cwd: string, log: LogWriter) => Promise<{ failed?: string }>;

export const prepareWorkdir: PrepareWorkdir = async (_db, execution) => {
  const cwd = agentWorkdir(execution.workspaceId, execution.taskId);
  fs.mkdirSync(cwd, { recursive: true, mode: 0o700 });
  return { cwd, branch: null };
};

export const concludeWorkdir: ConcludeWorkdir = async () => ({});
