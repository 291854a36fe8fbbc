import { noContent, withUser } from "@/lib/api/handler";
import { runnerParams } from "@/lib/dispatch/schemas";
import { deleteRunner } from "@/lib/dispatch/delete-runner";

export const DELETE = withUser({ adminOnly: true, params: runnerParams }, async ({ db, params }) => {
  await deleteRunner(db, params.runner_id);
  return noContent();
});
