import { pushPayload } from "@/lib/github/client/schemas";

// A push to a repository's default branch can put every open PR into that branch in conflict (or out
// of it). Pushes to other branches reach the board through pull_request synchronize instead.

export type PushChange = {
  installation_id: number | null;
  repo: string;
  /** Re-check mergeability (fetchMergeability) of the linked open and draft PRs whose base is this branch. */
  base_branch: string;
  head_sha: string;
};

export function pushChange(payload: unknown): PushChange | null {
  const parsed = pushPayload.safeParse(payload);
  if (!parsed.success) return null;
  const { ref, after, deleted, repository, installation } = parsed.data;
  if (deleted || ref !== `refs/heads/${repository.default_branch}`) return null;
  return { installation_id: installation?.id ?? null, repo: repository.full_name, base_branch: repository.default_branch, head_sha: after };
}
