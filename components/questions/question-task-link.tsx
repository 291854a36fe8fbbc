"use client";

import type { Question } from "@/lib/client/types";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

/** The task a question is about, as a button that opens it. */
export function QuestionTaskLink({ question }: { question: Question }) {
  const ui = useWorkspaceUi();
  return (
    <button
      type="button"
      onClick={() => ui.openTask(question.task_id)}
      className="mb-1 block max-w-full truncate text-left text-xs font-medium text-blue-800 hover:underline dark:text-blue-300"
    >
      {question.task_title ?? "Task"}
    </button>
  );
}
