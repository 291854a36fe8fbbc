import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createQuestionBody, listQuestionsQuery } from "@/lib/questions/schemas";
import { createQuestion } from "@/lib/questions/create-question";
import { listQuestions } from "@/lib/questions/list-questions";

export const GET = withWorkspace({ params: workspaceParams, query: listQuestionsQuery }, async ({ db, workspace, query }) =>
  json(await listQuestions(db, workspace.id, query)),
);

export const POST = withWorkspace({ params: workspaceParams, body: createQuestionBody }, async ({ db, workspace, body }) =>
  json(await createQuestion(db, workspace.id, body), 201),
);
