import { json, withWorkspace } from "@/lib/api/handler";
import { answerQuestionBody, questionParams } from "@/lib/questions/schemas";
import { answerQuestion } from "@/lib/questions/answer-question";
import { answerChannelOf } from "@/lib/api/answer-channel";

// Questions are for people: an agent token answers none, its own permission requests included
// (an agent must not grant itself, or another run, anything). The answer records who gave it,
// and where: the browser's session cookie is the board, any Bearer credential the API.
export const POST = withWorkspace(
  { params: questionParams, body: answerQuestionBody, humansOnly: "answer questions" },
  async ({ db, workspace, params, body, caller }) =>
    json(await answerQuestion(db, workspace.id, params.question_id, body.answer, caller.userId, answerChannelOf(caller))),
);
