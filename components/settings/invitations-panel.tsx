"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { invitationsQuery, useCreateInvitation, useRevokeInvitation } from "@/lib/client/invitations";
import type { CreatedInvitation, MemberRole } from "@/lib/client/types";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { ShownOnce } from "@/components/ui/shown-once";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/lib/client/dates";
import { RoleSelect } from "@/components/settings/role-select";

/** Owners' invitations: make a link (mailed too, with an email and SMTP set up), see the open ones, revoke. */
export function InvitationsPanel({ workspaceId }: { workspaceId: string }) {
  const [role, setRole] = useState<MemberRole>("member");
  const [email, setEmail] = useState("");
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const open = useQuery(invitationsQuery(workspaceId));
  const create = useCreateInvitation(workspaceId);
  const revoke = useRevokeInvitation(workspaceId);
  const toast = useToast();
  return (
    <div className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
      <h3 className="mb-1 text-sm font-semibold">Invite by link</h3>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        A link lets one person join with the role you pick, with a new account or their own. It works once and expires in 7 days.
      </p>
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ role, email: email.trim() || null }, { onSuccess: (invitation) => (setCreated(invitation), setEmail("")) });
        }}
      >
        <RoleSelect id="invite-role" label="Role of the person invited" value={role} onChange={setRole} />
        <label className="sr-only" htmlFor="invite-email">
          Email (optional)
        </label>
        <input
          id="invite-email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="Email (optional)"
          className={`${inputClass} mt-0 min-w-0 flex-1 basis-48`}
        />
        <button type="submit" className={secondaryButton} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create invitation link"}
        </button>
      </form>
      <ErrorText>{create.error ? `No invitation made: ${create.error.message}` : ""}</ErrorText>
      {created ? (
        <ShownOnce
          className="mt-3"
          message={`Invitation link for a ${created.role}${created.email ? ` (also mailed to ${created.email} if the server sends mail)` : ""}. Copy it now: it is not shown again.`}
          value={created.url}
          label="Invitation link"
          what="the link"
          onDone={() => setCreated(null)}
        />
      ) : null}
      <h3 className="mt-4 mb-1 text-sm font-semibold">Open invitations</h3>
      <SectionState query={open} what="the open invitations" empty="No open invitations.">
        {(list) => (
          <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
                <span className="min-w-0 truncate">{invitation.email ?? "Link without email"}</span>
                <span className="text-slate-600 dark:text-slate-400">{invitation.role}</span>
                <span className="text-slate-600 dark:text-slate-400">expires {formatDateTime(invitation.expires_at)}</span>
                <button
                  type="button"
                  className={`${secondaryButton} ml-auto`}
                  aria-label={`Revoke the invitation ${invitation.email ?? `for a ${invitation.role}`}`}
                  onClick={() => revoke.mutate(invitation, { onSuccess: () => toast("Invitation revoked: its link no longer works.") })}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <ErrorText>{revoke.error ? `Not revoked: ${revoke.error.message}` : ""}</ErrorText>
    </div>
  );
}
