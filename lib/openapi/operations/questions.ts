import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { answerQuestionBody, createQuestionBody, listQuestionsQuery, questionParams, questionResponse } from "@/lib/questions/schemas";

export const questionOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/workspaces/{id}/questions",
    operationId: "createQuestion",
    summary: "Raise a question against a task (the task shows as blocked while it is open)",
    tags: ["questions"],
    params: workspaceParams,
    body: createQuestionBody,
    responses: {
      201: { description: "The question, status open", schema: questionResponse },
      404: { description: "Workspace or task not found" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/questions",
    operationId: "listQuestions",
    summary: "Questions: open first, then by priority (0 first), then newest; at most `limit` (default 100, max 500)",
    tags: ["questions"],
    params: workspaceParams,
    query: listQuestionsQuery,
    responses: { 200: { description: "Questions", schema: z.array(questionResponse) } },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/questions/{question_id}",
    operationId: "deleteQuestion",
    summary: "Delete a question",
    tags: ["questions"],
    params: questionParams,
    responses: {
      204: { description: "Deleted" },
      404: { description: "Workspace or question not found" },
    },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/questions/{question_id}/answer",
    operationId: "answerQuestion",
    summary:
      'Answer an open question (people only: agent tokens get 403); the answer records answered_by and answered_via (board for the browser, api for a Bearer credential); a second answer is 409 "already answered by <name> via <channel>"',
    tags: ["questions"],
    params: questionParams,
    body: answerQuestionBody,
    responses: {
      200: { description: "The question, status answered", schema: questionResponse },
      403: { description: "An agent token (only people answer questions)" },
      404: { description: "Workspace or question not found" },
      409: { description: "The question is already answered" },
    },
  },
];
