import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { answerQuery, questionParams } from "@/lib/runner-protocol";
import { awaitPermission } from "@/lib/dispatch/runner-questions";

export const GET = withRunner({ params: questionParams, query: answerQuery }, async ({ db, runner, params, query, request }) =>
  json(await awaitPermission(db, runner, params.execution_id, params.question_id, query.wait_seconds, request.signal)),
);
