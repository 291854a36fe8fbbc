"use client";

import { useQuery } from "@tanstack/react-query";
import { membersQuery } from "@/lib/client/members";
import { useAnsweredQuestions } from "@/lib/client/questions";
import { formatDateTime } from "@/lib/client/dates";
import { secondaryButton } from "@/components/ui/field";
import { QuestionTaskLink } from "@/components/questions/question-task-link";

// The questions already answered, newest answer first, with who answered and when: what an agent
// was told stays findable after a reload. Read a page at a time ("Show older").

export function AnsweredQuestions({ workspaceId }: { workspaceId: string }) {
  const answered = useAnsweredQuestions(workspaceId, true);
  // Who answered, by name: one read of the members (cached), never one per question.
  const members = useQuery(membersQuery(workspaceId));
  const nameOf = (id: string) => {
    const member = members.data?.find((entry) => entry.user_id === id);
    return member ? (member.display_name ?? member.username) : "a former member";
  };
  if (answered.isPending) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading the answered questions…</p>;
  if (answered.isError)
    return (
      <p role="alert" className="text-sm text-red-800 dark:text-red-300">
        The answered questions could not be read: {answered.error.message}{" "}
        <button type="button" className="underline" onClick={() => answered.refetch()}>
          Try again
        </button>
      </p>
    );
  const items = answered.data.pages.flat();
  if (items.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
        No answered questions yet. Answers given here, or by an agent&apos;s run ending, are listed here newest first.
      </p>
    );
  return (
    <>
      <ul className="space-y-2" aria-label="Answered questions">
        {items.map((question) => (
          <li key={question.id} aria-label={question.content} className="rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800">
            <QuestionTaskLink question={question} />
            <p className="font-medium">{question.content}</p>
            <p className="mt-1 text-slate-800 dark:text-slate-200">→ {question.answer}</p>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="answered-by">
              {question.answered_by
                ? `Answered by ${nameOf(question.answered_by)}${question.answered_via ? ` via ${question.answered_via}` : ""}`
                : question.execution_id
                  ? "Closed when its run ended"
                  : "Answered"}
              {question.answered_at ? (
                <>
                  {" · "}
                  <time dateTime={question.answered_at}>{formatDateTime(question.answered_at)}</time>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
      {answered.hasNextPage ? (
        <button
          type="button"
          className={`${secondaryButton} mt-3`}
          disabled={answered.isFetchingNextPage}
          onClick={() => answered.fetchNextPage()}
        >
          {answered.isFetchingNextPage ? "Loading…" : "Show older"}
        </button>
      ) : null}
    </>
  );
}
