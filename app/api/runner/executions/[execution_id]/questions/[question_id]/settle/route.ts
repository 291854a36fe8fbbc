import { noContent } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { questionParams } from "@/lib/runner-protocol";
import { settlePermission } from "@/lib/dispatch/runner-questions";

export const POST = withRunner({ params: questionParams }, async ({ db, runner, params }) => {
  await settlePermission(db, runner, params.execution_id, params.question_id);
  return noContent();
});
