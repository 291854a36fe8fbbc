import { HttpError } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import type { FailingCheck } from "@/lib/github/client/fetch-checks";
import { startFixConflicts, startManualRun } from "@/lib/runs/start-run";

// The workspace settings auto_fix_conflicts and auto_fix_checks: an agent run started by a webhook's
// follow-up (after the answer), at most once per head commit of the pull request. The commit is
// claimed on the task with one conditional UPDATE before the run starts, so a second `dirty` (or
// failed check suite) for the same commit — a redelivery under another id, a second event, another
// instance — finds it taken and starts nothing, while a new commit starts again. A conflict the agent
// cannot fix therefore costs one run per push, never a loop. A run that could not start (one is
// already running) gives the claim back, so a later event may try.

export type AutomaticTask = { id: string; workspace_id: string; pr_url: string | null };

export async function startAutoFixConflicts(db: Db, task: AutomaticTask, headSha: string): Promise<string> {
  return startOnce(db, "conflicts", task, headSha, (userId) =>
    startFixConflicts(db, task.workspace_id, task.id, { userId, answerQueued: true }, false),
  );
}

export async function startAutoFixChecks(db: Db, task: AutomaticTask, headSha: string, failing: FailingCheck[]): Promise<string> {
  return startOnce(db, "checks", task, headSha, async (userId) => {
    const row = await db.task.findUniqueOrThrow({ where: { id: task.id }, select: { title: true, description: true } });
    return startManualRun(
      db,
      task.workspace_id,
      task.id,
      { userId, answerQueued: true },
      {
        instructions: fixChecksInstructions({ ...row, prUrl: task.pr_url }, headSha, failing),
      },
    );
  });
}

/** What the agent is told when checks fail: each failing check's name, conclusion, title and summary. */
export function fixChecksInstructions(
  task: { title: string; description: string; prUrl: string | null },
  headSha: string,
  failing: FailingCheck[],
): string {
  const listed = failing.slice(0, MAX_CHECKS).map((check) => {
    const head = `- ${check.name} (${check.conclusion})${check.title ? `: ${check.title}` : ""}`;
    const summary = check.summary?.trim();
    return summary ? `${head}\n${indent(clip(summary, MAX_SUMMARY))}` : head;
  });
  if (failing.length > MAX_CHECKS) listed.push(`- … and ${failing.length - MAX_CHECKS} more`);
  return [
    `The checks of this task's pull request${task.prUrl ? ` (${task.prUrl})` : ""} failed on commit ${headSha}:`,
    "",
    ...(listed.length > 0 ? listed : ["- (GitHub named no failing check run)"]),
    "",
    "Find out why and fix the code on the task's branch so that these checks pass. Keep the change to what the failures need.",
    "",
    `Task: ${task.title}`,
    ...(task.description.trim() ? ["", task.description.trim()] : []),
  ].join("\n");
}

async function startOnce(
  db: Db,
  kind: "conflicts" | "checks",
  task: AutomaticTask,
  headSha: string,
  start: (userId: string) => Promise<{ id: string }>,
): Promise<string> {
  const what = kind === "conflicts" ? "auto fix-conflicts" : "auto fix-checks";
  const previous = await claim(db, kind, task.id, headSha);
  if (previous === false) return `${what}: already tried for ${headSha.slice(0, 7)}`;
  // The run's API token acts as someone: the workspace's first owner (the automation is an owner's setting).
  const owner = await db.membership.findFirst({
    where: { workspaceId: task.workspace_id, role: "owner" },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: { userId: true },
  });
  try {
    if (!owner) throw new HttpError(409, "the workspace has no owner to run it as");
    const execution = await start(owner.userId);
    return `${what}: started execution ${execution.id} for ${headSha.slice(0, 7)}`;
  } catch (error) {
    await release(db, kind, task.id, headSha, previous);
    if (error instanceof HttpError) return `${what}: not started (${error.message})`;
    throw error;
  }
}

/** Takes the commit for this kind of run; false when it was taken already, else the value it replaced. */
async function claim(db: Db, kind: "conflicts" | "checks", taskId: string, headSha: string): Promise<string | null | false> {
  const rows =
    kind === "conflicts"
      ? await db.$queryRaw<{ previous: string | null }[]>`
          UPDATE tasks t SET auto_fix_conflicts_sha = ${headSha} FROM tasks old
          WHERE t.id = ${taskId} AND old.id = t.id AND t.auto_fix_conflicts_sha IS DISTINCT FROM ${headSha}
          RETURNING old.auto_fix_conflicts_sha AS previous`
      : await db.$queryRaw<{ previous: string | null }[]>`
          UPDATE tasks t SET auto_fix_checks_sha = ${headSha} FROM tasks old
          WHERE t.id = ${taskId} AND old.id = t.id AND t.auto_fix_checks_sha IS DISTINCT FROM ${headSha}
          RETURNING old.auto_fix_checks_sha AS previous`;
  return rows.length === 0 ? false : rows[0].previous;
}

async function release(db: Db, kind: "conflicts" | "checks", taskId: string, headSha: string, previous: string | null) {
  if (kind === "conflicts") {
    await db.$executeRaw`UPDATE tasks SET auto_fix_conflicts_sha = ${previous} WHERE id = ${taskId} AND auto_fix_conflicts_sha = ${headSha}`;
  } else {
    await db.$executeRaw`UPDATE tasks SET auto_fix_checks_sha = ${previous} WHERE id = ${taskId} AND auto_fix_checks_sha = ${headSha}`;
  }
}

const MAX_CHECKS = 20;
const MAX_SUMMARY = 2000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
