import { noContent, withWorkspace } from "@/lib/api/handler";
import { questionParams } from "@/lib/questions/schemas";
import { deleteQuestion } from "@/lib/questions/questions";

export const DELETE = withWorkspace({ params: questionParams }, async ({ db, workspace, params }) => {
  await deleteQuestion(db, workspace.id, params.question_id);
  return noContent();
});
