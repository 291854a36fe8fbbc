import { boardAutomation } from "@/lib/reactions/board-automation";
import { fixConflicts } from "@/lib/reactions/fix-conflicts";
import { githubAfterRun } from "@/lib/reactions/github-after-run";
import type { Reaction } from "@/lib/reactions/reaction";
import { startUnblocked } from "@/lib/reactions/start-unblocked";

// Every reaction the server runs. A new one is added here, and its migration starts existing
// workspaces at their log's head (see the reaction_cursors migration), or it would replay history.
export const REACTIONS: readonly Reaction[] = [boardAutomation, startUnblocked, githubAfterRun, fixConflicts];

export function reactionNamed(name: string): Reaction | undefined {
  return REACTIONS.find((reaction) => reaction.name === name);
}
