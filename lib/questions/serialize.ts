import type { Question } from "@/lib/generated/prisma/client";
import type { QuestionResponse } from "@/lib/questions/schemas";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import type { AnswerChannel } from "@/lib/questions/answer-channels";

/** Load questions with this include so task_title can be filled. */
export const withTaskTitle = { task: { select: { title: true } } } as const;

export function serializeQuestion(row: Question & { task?: { title: string } | null }): QuestionResponse {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    task_id: row.taskId,
    task_title: row.task?.title ?? null,
    content: row.content,
    context: row.context,
    options: Array.isArray(row.options) ? row.options.map(String) : null,
    answer: row.answer,
    status: row.status === QUESTION_STATUS.answered ? QUESTION_STATUS.answered : QUESTION_STATUS.open,
    priority: row.priority,
    created_at: row.createdAt.toISOString(),
    answered_at: row.answeredAt?.toISOString() ?? null,
    answered_by: row.answeredById,
    answered_via: (row.answeredVia as AnswerChannel | null) ?? null,
    execution_id: row.executionId,
  };
}
