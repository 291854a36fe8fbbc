import { json, withWorkspace } from "@/lib/api/handler";
import { answerQuestionBody, questionParams } from "@/lib/questions/schemas";
import { answerQuestion } from "@/lib/questions/questions";

export const POST = withWorkspace({ params: questionParams, body: answerQuestionBody }, async ({ db, workspace, params, body, caller }) =>
  json(await answerQuestion(db, workspace.id, params.question_id, body.answer, caller.kind === "agent")),
);
