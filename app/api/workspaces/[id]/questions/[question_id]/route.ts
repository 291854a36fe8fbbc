import { noContent, withWorkspace } from "@/lib/api/handler";
import { questionParams } from "@/lib/questions/schemas";
import { deleteQuestion } from "@/lib/questions/delete-question";

export const DELETE = withWorkspace({ params: questionParams }, async ({ db, workspace, params, caller }) => {
  await deleteQuestion(db, workspace.id, params.question_id, caller.workspaceScope !== null);
  return noContent();
});
