import type { Db } from "@/lib/db/client";
import { onWorkspaceEvents } from "@/lib/events/wake";
import { getQuestion } from "@/lib/questions/get-question";
import type { QuestionResponse } from "@/lib/questions/schemas";

export const MAX_WAIT_SECONDS = 60;

// The workspace's event wake-up (lib/events/wake.ts) fires when its event log grows, on this
// instance or another: the question is read again then, so an answer arrives at once. The slow
// poll covers a lost notification. Wake-ups that come while a read is under way make one more
// read, not one each, so a busy workspace costs at most one primary-key read at a time.
const POLL_MS = 5_000;

/**
 * The question as soon as it is answered, or as it is after `seconds` (at most MAX_WAIT_SECONDS),
 * or when `signal` aborts (the caller went away). 404 if the question is deleted meanwhile.
 */
export async function waitForAnswer(
  db: Db,
  workspaceId: string,
  questionId: string,
  seconds: number,
  signal?: AbortSignal,
): Promise<QuestionResponse> {
  const deadline = Date.now() + Math.min(seconds, MAX_WAIT_SECONDS) * 1000;
  let wake = () => {};
  let wokenSinceRead = false;
  // Subscribed before the first read, so an answer landing between a read and the wait still counts.
  const unsubscribe = onWorkspaceEvents(workspaceId, () => {
    wokenSinceRead = true;
    wake();
  });
  try {
    for (;;) {
      wokenSinceRead = false;
      const question = await getQuestion(db, workspaceId, questionId);
      const left = deadline - Date.now();
      if (question.status === "answered" || left <= 0 || signal?.aborted) return question;
      if (wokenSinceRead) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, POLL_MS));
        signal?.addEventListener("abort", done);
        wake = done;
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          wake = () => {};
          resolve();
        }
      });
    }
  } finally {
    unsubscribe();
  }
}
