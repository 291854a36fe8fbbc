import { useQuery } from "@tanstack/react-query";
import { agentsQuery } from "@/lib/client/agents";
import { currentUserQuery } from "@/lib/client/current-user";
import { membersQuery } from "@/lib/client/members";
import type { Task } from "@/lib/client/types";

// Who a task can be assigned to: the workspace's members and its agent profiles, in the shape the
// task carries them (TaskAssignee), for the task dialog's picker and the board's assignee filter.

export type Assignee = Task["assignees"][number];

export function useAssignables(workspaceId: string, enabled = true) {
  const members = useQuery({ ...membersQuery(workspaceId), enabled });
  const agents = useQuery({ ...agentsQuery(workspaceId), enabled });
  const me = useQuery({ ...currentUserQuery(), enabled });
  const people: Assignee[] = (members.data ?? []).map((m) => ({ kind: "user", id: m.user_id, name: m.display_name ?? m.username }));
  const profiles: Assignee[] = (agents.data ?? []).map((a) => ({ kind: "agent", id: a.id, name: a.name }));
  return {
    people,
    agents: profiles,
    meId: me.data?.id ?? null,
    isPending: members.isPending || agents.isPending,
    error: members.error ?? agents.error,
  };
}
