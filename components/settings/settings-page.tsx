"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiKeysQuery, useCreateApiKey, useDeleteApiKey } from "@/lib/client/api-keys";
import { membersQuery, useAddMember, useRemoveMember } from "@/lib/client/members";
import type { CreatedApiKey, Member } from "@/lib/client/types";
import { workspaceQuery } from "@/lib/client/workspaces";
import { Dialog } from "@/components/ui/dialog";
import { dangerButton, ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { ShownOnce } from "@/components/ui/shown-once";
import { useToast } from "@/components/ui/toast";
import { DependenciesSection } from "@/components/settings/dependencies-section";
import { BoardAutomationSection } from "@/components/settings/board-automation-section";
import { WebhooksSection } from "@/components/settings/webhooks-section";
import { AgentsSection } from "@/components/settings/agents-section";
import { RepositorySection } from "@/components/settings/repository-section";
import { CodehostSection } from "@/components/settings/codehost-section";

export function SettingsPage({ workspaceId }: { workspaceId: string }) {
  return (
    <main className="mx-auto max-w-3xl space-y-8 px-6 py-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <CodehostSection workspaceId={workspaceId} />
      <RepositorySection workspaceId={workspaceId} />
      <AgentsSection workspaceId={workspaceId} />
      <MembersSection workspaceId={workspaceId} />
      <BoardAutomationSection workspaceId={workspaceId} />
      <DependenciesSection workspaceId={workspaceId} />
      <OwnersWebhooks workspaceId={workspaceId} />
      <ApiKeysSection />
    </main>
  );
}

function OwnersWebhooks({ workspaceId }: { workspaceId: string }) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  if (!workspace.data) return null;
  return <WebhooksSection workspaceId={workspaceId} isOwner={workspace.data.role === "owner"} />;
}

const card = "rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900";

function MembersSection({ workspaceId }: { workspaceId: string }) {
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
      {members.isPending ? (
        <div className="h-6 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      ) : members.isError ? (
        <ErrorText>Could not load the members: {members.error.message}</ErrorText>
      ) : (
        <ul className="mb-3 divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {members.data.map((member) => (
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

function ApiKeysSection() {
  const toast = useToast();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const keys = useQuery(apiKeysQuery());
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  return (
    <section aria-labelledby="keys-title" className={card}>
      <h2 id="keys-title" className="mb-1 font-semibold">
        Your API keys
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Scripts and agents use these as Bearer tokens. They act as you in every workspace you belong to.
      </p>
      <form
        className="mb-3 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          create.mutate(name.trim(), {
            onSuccess: (key) => {
              setCreated(key);
              setName("");
            },
          });
        }}
      >
        <label className="sr-only" htmlFor="key-name">
          Key name
        </label>
        <input
          id="key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Name, e.g. CI script"
          maxLength={100}
          className={`${inputClass} mt-0 flex-1`}
        />
        <button type="submit" className={primaryButton} disabled={create.isPending || !name.trim()}>
          Create key
        </button>
      </form>
      <ErrorText>{create.error ? `No key created: ${create.error.message}` : ""}</ErrorText>
      {created ? (
        <ShownOnce
          message={`Copy the key “${created.name}” now: it is shown only once.`}
          value={created.key}
          label="New API key"
          what="the key"
          onDone={() => setCreated(null)}
        />
      ) : null}
      {keys.isPending ? (
        <div className="h-6 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      ) : keys.isError ? (
        <ErrorText>Could not load your keys: {keys.error.message}</ErrorText>
      ) : keys.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No API keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {keys.data.map((key) => (
            <li key={key.id} className="flex items-center gap-3 py-2">
              <span className="font-medium">{key.name}</span>
              <code className="text-xs text-slate-600 dark:text-slate-400">{key.prefix}…</code>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {key.last_used_at ? `used ${new Date(key.last_used_at).toLocaleString()}` : "never used"}
              </span>
              <span className="ml-auto" />
              {confirming === key.id ? (
                <>
                  <button
                    type="button"
                    className={dangerButton}
                    onClick={() =>
                      remove.mutate(key.id, {
                        onSuccess: () => {
                          setConfirming(null);
                          toast("API key deleted; it stops working at once.");
                        },
                      })
                    }
                    disabled={remove.isPending}
                  >
                    Delete {key.name}
                  </button>
                  <button type="button" className={secondaryButton} onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setConfirming(key.id)}
                  aria-label={`Delete key ${key.name}`}
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorText>{remove.error ? `Not deleted: ${remove.error.message}` : ""}</ErrorText>
    </section>
  );
}
