"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { membersQuery, useAddMember, useRemoveMember } from "@/lib/client/members";
import type { Member, MemberRole } from "@/lib/client/types";
import { workspaceQuery } from "@/lib/client/workspaces";
import { Dialog } from "@/components/ui/dialog";
import { dangerButton, ErrorText, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";
import { PeoplePicker } from "@/components/settings/people-picker";
import { RoleSelect } from "@/components/settings/role-select";
import { InvitationsPanel } from "@/components/settings/invitations-panel";

export function MembersSection({ workspaceId }: { workspaceId: string }) {
  const [role, setRole] = useState<MemberRole>("member");
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useQuery(membersQuery(workspaceId));
  const workspace = useQuery(workspaceQuery(workspaceId));
  const add = useAddMember(workspaceId);
  const toast = useToast();
  const isOwner = workspace.data?.role === "owner";
  return (
    <section aria-labelledby="members-title" className={card}>
      <h2 id="members-title" className="mb-2 font-semibold">
        Members
      </h2>
      {workspace.data?.role === "viewer" ? (
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          You are a viewer here: you can read this workspace but not change it.
        </p>
      ) : null}
      <SectionState query={members} what="the members">
        {(list) => (
          <ul className="mb-3 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((member) => (
              <li key={member.user_id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
                <span className="min-w-0 truncate">
                  <span className="font-medium">{member.display_name ?? member.username}</span>
                  {member.display_name ? <span className="ml-2 text-slate-600 dark:text-slate-400">@{member.username}</span> : null}
                </span>
                <span className="ml-auto text-slate-600 dark:text-slate-400">{member.role}</span>
                {isOwner ? (
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => setRemoving(member)}
                    aria-label={`Remove ${member.username}`}
                  >
                    Remove
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      {isOwner ? (
        <>
          <div className="flex flex-wrap gap-2">
            <PeoplePicker
              workspaceId={workspaceId}
              onPick={(user) =>
                add.mutate(
                  { username: user.username, role },
                  { onSuccess: (m) => toast(`Added ${m.display_name ?? m.username} as ${m.role}.`) },
                )
              }
            />
            <RoleSelect id="add-member-role" label="Role of the person added" value={role} onChange={setRole} />
          </div>
          <ErrorText>{add.error ? `Not added: ${add.error.message}` : ""}</ErrorText>
          <InvitationsPanel workspaceId={workspaceId} />
        </>
      ) : null}
      {removing ? <RemoveMemberDialog workspaceId={workspaceId} member={removing} onClose={() => setRemoving(null)} /> : null}
    </section>
  );
}

/** Asks before removing a member; a refusal (the last owner, say) is shown in the dialog in words. */
function RemoveMemberDialog({ workspaceId, member, onClose }: { workspaceId: string; member: Member; onClose: () => void }) {
  const remove = useRemoveMember(workspaceId);
  const toast = useToast();
  return (
    <Dialog open onClose={onClose} title={`Remove ${member.username}?`}>
      <p className="mb-4 text-sm">
        {member.username} loses access to this workspace at once: its board, questions, projects and schedules. Their tasks and answers
        stay.
      </p>
      <ErrorText>{remove.error ? `Not removed: ${remove.error.message}` : ""}</ErrorText>
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={dangerButton}
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(member, {
              onSuccess: () => {
                toast(`Removed ${member.username} from the workspace.`);
                onClose();
              },
            })
          }
        >
          {remove.isPending ? "Removing…" : `Remove ${member.username}`}
        </button>
      </div>
    </Dialog>
  );
}
