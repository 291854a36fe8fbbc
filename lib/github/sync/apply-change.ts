import { Prisma } from "@/lib/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import type { GithubApp } from "@/lib/github/client/app-client";
import type { ChecksChange } from "@/lib/github/client/check-event";
import { fetchChecks } from "@/lib/github/client/fetch-checks";
import { fetchMergeability } from "@/lib/github/client/fetch-mergeability";
import type { InstallationChange } from "@/lib/github/client/installation-event";
import type { BoardChange } from "@/lib/github/client/interpret-delivery";
import { pickLinkedTask, type PullRequestChange } from "@/lib/github/client/pull-request-event";
import type { PushChange } from "@/lib/github/client/push-event";
import { updateTask } from "@/lib/tasks/update-task";
import { startAutoFixChecks } from "@/lib/github/sync/start-automatic-run";

// What a verified delivery does to the board. The database part runs before the webhook is
// answered; anything that asks GitHub comes back as a FollowUp, run after the answer. Every task
// write goes through updateTask, the function behind PATCH …/tasks/{id}, so positions, column
// counts, done_at and live events behave exactly as for a person's edit.
//
// A workspace takes a delivery when its connected repository is the payload's (GitHub compares
// names without case) and, when the payload names an installation, its installation is that one.
// Tasks are linked by their recorded pr_url, by their branch (the PR's head ref), by a #tb-<number>
// mention or by their full id in the PR's title or body, in that order (pickLinkedTask).

/** Work after the answer; resolves to a line for the delivery's result. */
export type FollowUp = (github: GithubApp) => Promise<string | null>;
export type Applied = { result: string; followUp: FollowUp | null };

type TaskRow = {
  id: string;
  workspace_id: string;
  number: number;
  branch: string | null;
  status: string;
  pr_url: string | null;
  pr_number: number | null;
  pr_head_sha: string | null;
  checks: string | null;
  has_merge_conflict: boolean;
  merged_to_done: boolean;
  installation_id: number;
  auto_fix_checks: boolean;
};

export async function applyBoardChange(db: Db, change: BoardChange): Promise<Applied> {
  switch (change.kind) {
    case "pull_request":
      return applyPullRequest(db, change.change);
    case "checks":
      return applyChecks(db, change.change);
    case "push":
      return applyPush(db, change.change);
    case "installation":
      return applyInstallation(db, change.change);
    case "ignored":
      return { result: `ignored: ${change.reason}`, followUp: null };
  }
}

async function applyPullRequest(db: Db, change: PullRequestChange): Promise<Applied> {
  const { link, state } = change;
  const rows = await db.$queryRaw<TaskRow[]>`
    SELECT ${TASK_COLUMNS} FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
    WHERE ${connectedTo(change.repo, change.installation_id)}
      AND (t.pr_url = ${link.pr_url} OR t.branch = ${link.branch} OR t.number = ANY(${link.task_numbers}::int[])
           OR t.id = ANY(${link.task_ids}::text[]))`;
  const linked = [...groupBy(rows, (row) => row.workspace_id).values()].flatMap((tasks) => pickLinkedTask(link, tasks) ?? []);
  if (linked.length === 0) return { result: `no task links to ${state.pr_url}`, followUp: null };
  const lines: string[] = [];
  for (const task of linked) {
    const toDone = state.pr_state === "merged" && task.merged_to_done && task.status !== "done";
    await updateTask(
      db,
      task.workspace_id,
      task.id,
      {
        pr_url: state.pr_url,
        ...(toDone ? { status: "done" as const } : {}),
        // A task linked by URL or mention learns the PR's branch, so fix-conflicts and pushes have one.
        ...(task.branch === null && change.own_head_branch ? { branch: change.own_head_branch } : {}),
        // A new head commit's mergeability is unknown until the recheck below says (and the
        // fix-conflicts reaction must not act on the old commit's verdict).
        ...(change.recheck_mergeability && task.pr_head_sha !== state.pr_head_sha && task.has_merge_conflict
          ? { has_merge_conflict: false }
          : {}),
      },
      // A new head commit has not been checked yet: its checks' verdict comes with its check events,
      // its mergeability with the recheck below.
      { ...state, ...(task.pr_head_sha !== state.pr_head_sha ? { checks: null } : {}) },
    );
    lines.push(`task ${task.id}: #${state.pr_number} ${state.pr_state}${toDone ? ", moved to done" : ""}`);
  }
  const followUp = change.recheck_mergeability
    ? (github: GithubApp) =>
        recheckMergeability(
          db,
          github,
          change.repo,
          linked.map((task) => ({ ...task, pr_number: state.pr_number })),
        )
    : null;
  return { result: lines.join("; "), followUp };
}

async function applyPush(db: Db, change: PushChange): Promise<Applied> {
  const rows = await db.$queryRaw<TaskRow[]>`
    SELECT ${TASK_COLUMNS} FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
    WHERE ${connectedTo(change.repo, change.installation_id)}
      AND t.pr_number IS NOT NULL AND t.pr_state IN ('open', 'draft')`;
  if (rows.length === 0) return { result: `push to ${change.base_branch}: no open linked pull request`, followUp: null };
  return {
    result: `push to ${change.base_branch}: re-checking ${rows.length} pull request(s)`,
    followUp: (github) => recheckMergeability(db, github, change.repo, rows),
  };
}

async function applyChecks(db: Db, change: ChecksChange): Promise<Applied> {
  const rows = await db.$queryRaw<TaskRow[]>`
    SELECT ${TASK_COLUMNS} FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
    WHERE ${connectedTo(change.repo, change.installation_id)} AND t.pr_head_sha = ${change.head_sha}`;
  if (rows.length === 0) return { result: `no linked pull request has head ${change.head_sha}`, followUp: null };
  return {
    result: `checks of ${change.head_sha} changed for ${rows.length} task(s)`,
    // One event says how one run went; the verdict is over all runs of the commit.
    followUp: async (github) => {
      const { checks, failing } = await fetchChecks(github, rows[0].installation_id, change.repo, change.head_sha);
      const lines = [`checks: ${checks ?? "none"}`];
      for (const task of rows) {
        if (task.checks !== checks) await updateTask(db, task.workspace_id, task.id, {}, { checks });
        if (checks === "failure" && task.auto_fix_checks) lines.push(await startAutoFixChecks(db, task, change.head_sha, failing));
      }
      return lines.join("; ");
    },
  };
}

async function applyInstallation(db: Db, change: InstallationChange): Promise<Applied> {
  if (!change.reason) return { result: `installation ${change.installation_id}: nothing lost`, followUp: null };
  const removed = change.repositories_removed.map((repo) => repo.toLowerCase());
  const disconnected = await db.$executeRaw`
    UPDATE workspaces SET github_installation_id = NULL, github_disconnect_reason = ${change.reason}, updated_at = now()
    WHERE github_installation_id = ${change.installation_id}
      AND (${change.disconnect_installation} OR lower(github_repo) = ANY(${removed}::text[]))`;
  return { result: `${change.reason}: ${disconnected} workspace(s) disconnected`, followUp: null };
}

/** Asks GitHub for each PR's mergeability (with back-off while it is still computing) and records conflicts. */
async function recheckMergeability(db: Db, github: GithubApp, repo: string, tasks: TaskRow[]): Promise<string> {
  const lines: string[] = [];
  for (const task of tasks) {
    if (task.pr_number === null) continue;
    const found = await fetchMergeability(github, task.installation_id, repo, task.pr_number);
    if (found.mergeable === null) {
      lines.push(`#${task.pr_number}: mergeability still unknown`);
      continue;
    }
    // Recorded even when unchanged: the verdict is about this head commit, and the fix-conflicts
    // reaction (lib/reactions/fix-conflicts.ts) starts one attempt per conflicted head commit.
    if (found.has_merge_conflict || found.has_merge_conflict !== task.has_merge_conflict) {
      await updateTask(db, task.workspace_id, task.id, { has_merge_conflict: found.has_merge_conflict });
    }
    lines.push(`#${task.pr_number}: ${found.mergeable_state}`);
  }
  return `mergeability ${lines.join(", ")}`;
}

// ---------------------------------------------------------------- helpers

const TASK_COLUMNS = Prisma.sql`t.id, t.workspace_id, t.number, t.branch, t.status, t.pr_url, t.pr_number, t.pr_head_sha, t.checks, t.has_merge_conflict,
  w.github_merged_to_done AS merged_to_done, w.github_installation_id AS installation_id,
  w.github_auto_fix_checks AS auto_fix_checks`;

function connectedTo(repo: string, installationId: number | null) {
  return Prisma.sql`lower(w.github_repo) = lower(${repo}) AND w.github_installation_id IS NOT NULL
    AND (${installationId}::int IS NULL OR w.github_installation_id = ${installationId}::int)`;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
