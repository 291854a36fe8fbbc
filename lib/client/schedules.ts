import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { upsertById, useDeleteFromList } from "@/lib/client/list-cache";
import { scheduleKeys } from "@/lib/client/query-keys";
import type { Schedule, ScheduleInput, TriggerResult } from "@/lib/client/types";

const schedulesUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/schedules`;

export function schedulesQuery(workspaceId: string) {
  return queryOptions({
    queryKey: scheduleKeys.list(workspaceId),
    queryFn: () => api<Schedule[]>(schedulesUrl(workspaceId)),
  });
}

/** Creates a schedule (scheduleId null) or updates one. */
export function useSaveSchedule(workspaceId: string, scheduleId: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) =>
      scheduleId
        ? api<Schedule>(`${schedulesUrl(workspaceId)}/${scheduleId}`, { method: "PATCH", json: input })
        : api<Schedule>(schedulesUrl(workspaceId), { method: "POST", json: input }),
    onSuccess: (saved) => client.setQueryData<Schedule[]>(scheduleKeys.list(workspaceId), (old) => upsertById(old, saved)),
  });
}

/** Fires a schedule now; its "last triggered" time changes, so the list is read again. */
export function useTriggerSchedule(workspaceId: string, scheduleId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<TriggerResult>(`${schedulesUrl(workspaceId)}/${scheduleId}/trigger`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: scheduleKeys.list(workspaceId) }),
  });
}

export function useDeleteSchedule(workspaceId: string) {
  return useDeleteFromList<Schedule>(scheduleKeys.list(workspaceId), (id) => `${schedulesUrl(workspaceId)}/${id}`);
}
