import type { Caller } from "@/lib/auth/authenticate";
import type { AnswerChannel } from "@/lib/questions/answer-channels";

/** The channel of an answer given over HTTP: the browser's session is the board, a Bearer credential the API. */
export function answerChannelOf(caller: Caller): AnswerChannel {
  return caller.kind === "browser_session" ? "board" : "api";
}
