import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";

/** A cached list with `item` in it: replacing the entry with the same id, or appended when new. */
export function upsertById<T extends { id: string }>(list: T[] | undefined, item: T): T[] {
  const old = list ?? [];
  return old.some((entry) => entry.id === item.id) ? old.map((entry) => (entry.id === item.id ? item : entry)) : [...old, item];
}

/**
 * Deleting an entry of a cached list: it leaves the list at once, comes back if the server refuses,
 * and the list is read again either way. `url` is the entry's own URL, answered by DELETE.
 */
export function useDeleteFromList<T extends { id: string }>(key: QueryKey, url: (id: string) => string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(url(id), { method: "DELETE" }),
    onMutate: async (id) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<T[]>(key);
      client.setQueryData<T[]>(key, (old) => old?.filter((entry) => entry.id !== id));
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}
