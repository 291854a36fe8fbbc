import type { Db } from "@/lib/db/client";
import { trackingRecorded } from "@/lib/events/recorded-events";
import { waitForReactions } from "@/lib/reactions/wait-for-reactions";
import { preferences } from "@/lib/api/prefer";

// A write answers once its own transaction has committed: the reactions to it (a dependant started,
// a task moved by the board's automation) run afterwards, in the reactions worker, and reach the
// browser through the event stream. Waiting for them in every request made every writer queue
// behind that one worker (issue #36). A client that needs their effects in the answer's wake (a
// script that moves a blocker to Done and then reads its dependant's run) asks for it with
// `Prefer: wait=reactions` (RFC 7240): then the answer waits, at most 2 s, for the reactions that
// read what the request recorded, and says so with `Preference-Applied: wait=reactions`.

export const WAIT_FOR_REACTIONS = "wait=reactions";

/** Runs the handler's `work`, and waits for its reactions first when the request prefers it. */
export async function afterReactions(request: Request, db: Db, work: () => Promise<Response>): Promise<Response> {
  if (preferences(request.headers.get("prefer")).get("wait") !== "reactions") return work();
  const { result, recorded } = await trackingRecorded(work);
  if (result.status >= 400) return result;
  if (recorded.size > 0) await waitForReactions(db, recorded);
  result.headers.set("preference-applied", WAIT_FOR_REACTIONS);
  return result;
}
