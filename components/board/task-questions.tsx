"use client";

import type { Task } from "@/lib/client/types";
import { QuestionItem, useAnswer } from "@/components/questions/question-panel";

/** The questions agents asked on this task, answerable in place. */
export function TaskQuestions({ workspaceId, questions }: { workspaceId: string; questions: Task["questions"] }) {
  const answer = useAnswer(workspaceId);
  return (
    <section aria-labelledby="task-questions" className="mt-6">
      <h3 id="task-questions" className="mb-2 text-sm font-semibold">
        Questions
      </h3>
      {questions.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No questions on this task.</p>
      ) : (
        <ul className="space-y-2">
          {questions.map((question) => (
            <QuestionItem key={question.id} question={question} onAnswer={(text) => answer(question, text)} />
          ))}
        </ul>
      )}
    </section>
  );
}
