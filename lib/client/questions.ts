import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { questionKeys } from "@/lib/client/query-keys";
import type { Question } from "@/lib/client/types";
import { questionEventsSeen, readBetweenEvents, refreshTask } from "@/lib/client/reads-after-events";
import { QUESTION_STATUS } from "@/lib/questions/statuses";

// Questions agents raise to people: the open ones, and answering them.

export function openQuestionsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: questionKeys.list(workspaceId),
    queryFn: () => readOpenQuestions(workspaceId),
  });
}

/**
 * The open list, read again when a question event arrived during the read: the answer may predate
 * that question, and putting it in the cache would drop it (the event was applied already, or found
 * no list to add to), so an agent's question would wait unseen until something else read the list.
 */
async function readOpenQuestions(workspaceId: string): Promise<Question[]> {
  const read = await readBetweenEvents(
    () => questionEventsSeen(workspaceId),
    () => api<Question[]>(`/api/workspaces/${workspaceId}/questions?status=open`),
  );
  return read.value;
}

export const ANSWERED_PAGE = 20;

/** Answered questions, newest answer first, a page at a time (`before` the last one shown). */
export function useAnsweredQuestions(workspaceId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: questionKeys.answered(workspaceId),
    queryFn: ({ pageParam }) =>
      api<Question[]>(
        `/api/workspaces/${workspaceId}/questions?status=answered&limit=${ANSWERED_PAGE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => (page.length === ANSWERED_PAGE ? page[page.length - 1].id : undefined),
    enabled,
  });
}

/** Open questions, most urgent first (lowest priority number, then oldest). */
export function useOpenQuestions(workspaceId: string) {
  return useQuery({ ...openQuestionsQuery(workspaceId), select: sortOpen });
}

export function sortOpen(questions: Question[]): Question[] {
  return questions
    .filter((question) => question.status === QUESTION_STATUS.open)
    .sort((a, b) => a.priority - b.priority || a.created_at.localeCompare(b.created_at));
}

/** Answers a question: it leaves the open list at once and comes back if the server refuses. */
export function useAnswerQuestion(workspaceId: string) {
  const client = useQueryClient();
  const key = questionKeys.list(workspaceId);
  return useMutation({
    mutationFn: ({ question, answer }: { question: Question; answer: string }) =>
      api<Question>(`/api/workspaces/${workspaceId}/questions/${question.id}/answer`, { method: "POST", json: { answer } }),
    onMutate: async ({ question, answer }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Question[]>(key);
      client.setQueryData<Question[]>(key, (old) =>
        old?.map((q) =>
          q.id === question.id ? { ...q, answer, status: QUESTION_STATUS.answered, answered_at: new Date().toISOString() } : q,
        ),
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSuccess: (saved) => {
      client.setQueryData<Question[]>(key, (old) => old?.map((q) => (q.id === saved.id ? saved : q)));
      // The card's blocked badge and the task dialog count open questions: the server knows.
      refreshTask(client, workspaceId, saved.task_id);
      client.invalidateQueries({ queryKey: questionKeys.answered(workspaceId) });
    },
  });
}
