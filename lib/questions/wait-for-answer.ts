import type { Db } from "@/lib/db/client";
import { localBus, type WorkspaceEvent } from "@/lib/events/publish";
import { getQuestion } from "@/lib/questions/questions";
import type { QuestionResponse } from "@/lib/questions/serialize";

export const MAX_WAIT_SECONDS = 60;

// The live bus delivers an answer given on this instance at once (and, with PostgreSQL, one given
// on another instance through the relay). The slow poll covers a relay that is down; it bounds the
// cost of a wait to one primary-key read every POLL_MS.
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
  const bus = localBus();
  let wake = () => {};
  let answeredSinceRead = false;
  const onEvent = (event: WorkspaceEvent) => {
    if (event.type !== "question.answered" || (event.data as { id?: string } | null)?.id !== questionId) return;
    answeredSinceRead = true;
    wake();
  };
  // Subscribed before the first read, so an answer landing between the read and the wait still wakes it.
  bus.on(workspaceId, onEvent);
  try {
    for (;;) {
      answeredSinceRead = false;
      const question = await getQuestion(db, workspaceId, questionId);
      const left = deadline - Date.now();
      if (question.status === "answered" || left <= 0 || signal?.aborted) return question;
      if (answeredSinceRead) continue;
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
    bus.off(workspaceId, onEvent);
  }
}
