"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { membersQuery, useAddMember, useRemoveMember } from "@/lib/client/members";
import type { Member } from "@/lib/client/types";
import { workspaceQuery } from "@/lib/client/workspaces";
import { Dialog } from "@/components/ui/dialog";
import { dangerButton, ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";

export function MembersSection({ workspaceId }: { workspaceId: string }) {
  const [username, setUsername] = useState("");
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useQuery(membersQuery(workspaceId));
  const workspace = useQuery(workspaceQuery(workspaceId));
  const add = useAddMember(workspaceId);
  const isOwner = workspace.data?.role === "owner";
  return (
    <section aria-labelledby="members-title" className={card}>
      <h2 id="members-title" className="mb-2 font-semibold">
        Members
      </h2>
      <SectionState query={members} what="the members">
        {(list) => (
          <ul className="mb-3 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((member) => (
              <li key={member.user_id} className="flex items-center gap-3 py-1.5">
                <span>{member.username}</span>
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
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (username.trim()) add.mutate(username.trim(), { onSuccess: () => setUsername("") });
        }}
      >
        <label className="sr-only" htmlFor="add-member">
          Username to add
        </label>
        <input
          id="add-member"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          placeholder="Username"
          className={`${inputClass} mt-0 flex-1`}
        />
        <button type="submit" className={secondaryButton} disabled={add.isPending || !username.trim()}>
          Add member
        </button>
      </form>
      <ErrorText>{add.error ? `Not added: ${add.error.message}` : ""}</ErrorText>
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
