import type { z } from "zod";
import { pullRequestPayload } from "@/lib/github/client/schemas";

// What a pull_request delivery means for the board, decided without a database: which task it may
// belong to (the candidates, for the caller's one lookup; pickLinkedTask chooses) and the PR state to
// record on it. Other actions (labeled, assigned, …) change neither.

export const PULL_REQUEST_ACTIONS = [
  "opened",
  "edited",
  "synchronize",
  "closed",
  "reopened",
  "ready_for_review",
  "converted_to_draft",
] as const;

export type PrState = "open" | "draft" | "merged" | "closed";

export type PullRequestChange = {
  action: (typeof PULL_REQUEST_ACTIONS)[number];
  installation_id: number | null;
  repo: string;
  base_ref: string;
  /** The head ref when it lives in the PR's own repository (not a fork): a branch the board can push to. */
  own_head_branch: string | null;
  link: LinkCandidates;
  /** `pr_head_branch` is `own_head_branch`: a fork's branch is never one the board may push. */
  state: { pr_number: number; pr_state: PrState; pr_head_sha: string; pr_head_branch: string | null; pr_url: string };
  /** GitHub recomputes mergeability after this: the caller fetches it (fetchMergeability) once answered. */
  recheck_mergeability: boolean;
};

export type LinkCandidates = {
  pr_url: string;
  /** The PR's head ref, compared with a task's `branch`. */
  branch: string;
  /** Numbers from "#tb-<n>" mentions in the title or body, in order of appearance. */
  task_numbers: number[];
  /** Full task ids (UUIDv7) in the title or body, lower-cased, in order of appearance. */
  task_ids: string[];
};

export type LinkableTask = { id: string; number: number | null; branch: string | null; pr_url: string | null };

const MENTION = /(?<![\w-])#tb-(\d{1,9})\b/gi;
const TASK_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/gi;

export function pullRequestChange(payload: unknown): PullRequestChange | null {
  const parsed = pullRequestPayload.safeParse(payload);
  if (!parsed.success) return null;
  const { action, pull_request: pr, repository, installation } = parsed.data;
  if (!isHandled(action)) return null;
  const text = `${pr.title}\n${pr.body ?? ""}`;
  const ownHeadBranch = pr.head.repo?.full_name.toLowerCase() === repository.full_name.toLowerCase() ? pr.head.ref : null;
  return {
    action,
    installation_id: installation?.id ?? null,
    repo: repository.full_name,
    base_ref: pr.base.ref,
    own_head_branch: ownHeadBranch,
    link: {
      pr_url: pr.html_url,
      branch: pr.head.ref,
      task_numbers: unique([...text.matchAll(MENTION)].map((match) => Number(match[1]))),
      task_ids: unique([...text.matchAll(TASK_ID)].map((match) => match[0].toLowerCase())),
    },
    state: { pr_number: pr.number, pr_state: prStateOf(pr), pr_head_sha: pr.head.sha, pr_head_branch: ownHeadBranch, pr_url: pr.html_url },
    recheck_mergeability: pr.state === "open",
  };
}

/**
 * The task a PR belongs to, among the caller's tasks that match any candidate (in the PR's workspace).
 * An existing link (pr_url) wins, then the branch, then the first mention, then the first task id: a
 * mention in a later edit never steals a PR already linked.
 */
export function pickLinkedTask<T extends LinkableTask>(link: LinkCandidates, tasks: T[]): T | null {
  return (
    tasks.find((task) => task.pr_url === link.pr_url) ??
    tasks.find((task) => task.branch !== null && task.branch === link.branch) ??
    firstBy(link.task_numbers, (n) => tasks.find((task) => task.number === n)) ??
    firstBy(link.task_ids, (id) => tasks.find((task) => task.id.toLowerCase() === id)) ??
    null
  );
}

function prStateOf(pr: z.infer<typeof pullRequestPayload>["pull_request"]): PrState {
  if (pr.merged) return "merged";
  if (pr.state === "closed") return "closed";
  return pr.draft ? "draft" : "open";
}

function isHandled(action: string): action is PullRequestChange["action"] {
  return (PULL_REQUEST_ACTIONS as readonly string[]).includes(action);
}

function firstBy<K, T>(keys: K[], find: (key: K) => T | undefined): T | undefined {
  for (const key of keys) {
    const found = find(key);
    if (found) return found;
  }
  return undefined;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
