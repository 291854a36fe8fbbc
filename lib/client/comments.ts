import { infiniteQueryOptions, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { taskKeys } from "@/lib/client/query-keys";
import type { Comment, CommentPage, CurrentUser } from "@/lib/client/types";

// A task's comments for the dialog's timeline: pages of the newest comments (each oldest first),
// "Load older" asks for the page before. Writes are optimistic and rolled back on an error; the
// event stream (lib/client/use-workspace-events.ts) refetches when someone else comments.

type Pages = InfiniteData<CommentPage, string | null>;

const commentsUrl = (workspaceId: string, taskId: string) => `/api/workspaces/${workspaceId}/tasks/${taskId}/comments`;

export function commentsQuery(workspaceId: string, taskId: string) {
  return infiniteQueryOptions({
    queryKey: taskKeys.comments(workspaceId, taskId),
    queryFn: ({ pageParam }) => api<CommentPage>(`${commentsUrl(workspaceId, taskId)}?limit=20${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before,
  });
}

/** Every comment of the loaded pages, oldest first (the first page is the newest). */
export function loadedComments(data: { pages: CommentPage[] } | undefined): Comment[] {
  return [...(data?.pages ?? [])].reverse().flatMap((page) => page.items);
}

function useCommentMutation<V>(
  workspaceId: string,
  taskId: string,
  request: (vars: V) => Promise<unknown>,
  change: (pages: CommentPage[], vars: V) => CommentPage[],
) {
  const client = useQueryClient();
  const key = taskKeys.comments(workspaceId, taskId);
  return useMutation({
    mutationFn: request,
    onMutate: async (vars: V) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Pages>(key);
      if (previous) client.setQueryData<Pages>(key, { ...previous, pages: change(previous.pages, vars) });
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useCreateComment(workspaceId: string, taskId: string, me: CurrentUser | undefined) {
  return useCommentMutation(
    workspaceId,
    taskId,
    (body: string) => api<Comment>(commentsUrl(workspaceId, taskId), { method: "POST", json: { body } }),
    (pages, body) => {
      const now = new Date().toISOString();
      const pending: Comment = {
        id: `pending-${now}`,
        task_id: taskId,
        author: { kind: "user", id: me?.id ?? "", name: me?.display_name ?? me?.username ?? "You" },
        body,
        mentions: [],
        created_at: now,
        updated_at: now,
        edited: false,
      };
      return pages.map((page, index) => (index === 0 ? { ...page, items: [...page.items, pending] } : page));
    },
  );
}

export function useUpdateComment(workspaceId: string, taskId: string) {
  return useCommentMutation(
    workspaceId,
    taskId,
    ({ id, body }: { id: string; body: string }) =>
      api<Comment>(`${commentsUrl(workspaceId, taskId)}/${id}`, { method: "PATCH", json: { body } }),
    (pages, { id, body }) =>
      pages.map((page) => ({ ...page, items: page.items.map((c) => (c.id === id ? { ...c, body, edited: true } : c)) })),
  );
}

export function useDeleteComment(workspaceId: string, taskId: string) {
  return useCommentMutation(
    workspaceId,
    taskId,
    (id: string) => api<void>(`${commentsUrl(workspaceId, taskId)}/${id}`, { method: "DELETE" }),
    (pages, id) => pages.map((page) => ({ ...page, items: page.items.filter((c) => c.id !== id) })),
  );
}
