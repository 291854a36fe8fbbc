"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { currentUserQuery } from "@/lib/client/current-user";
import { usersQuery, useCreateUser, useUpdateUser } from "@/lib/client/users";
import type { CurrentUser } from "@/lib/client/types";
import { Dialog } from "@/components/ui/dialog";
import { ErrorText, Field, primaryButton, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";

/** Settings → Users: the server's accounts, for administrators only (the API says 403 to anyone else). */
export function UsersSection() {
  const me = useQuery(currentUserQuery());
  const isAdmin = me.data?.is_admin === true;
  const users = useQuery(usersQuery(isAdmin));
  const update = useUpdateUser();
  const toast = useToast();
  const [resetting, setResetting] = useState<CurrentUser | null>(null);
  if (!isAdmin) return null;
  return (
    <section aria-labelledby="users-title" className={card}>
      <h2 id="users-title" className="mb-1 font-semibold">
        Users
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Everyone with an account on this server. Only administrators see this.
      </p>
      <SectionState query={users} what="the users">
        {(list) => (
          <ul className="mb-4 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {list.map((user) => (
              <li key={user.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
                <span className={`min-w-0 truncate ${user.disabled ? "text-slate-500 line-through" : ""}`}>
                  <span className="font-medium">{user.display_name ?? user.username}</span>
                  {user.display_name ? <span className="ml-2 text-slate-600 dark:text-slate-400">@{user.username}</span> : null}
                </span>
                {user.is_admin ? <span className="text-slate-600 dark:text-slate-400">administrator</span> : null}
                {user.disabled ? <span className="text-red-700 dark:text-red-300">disabled</span> : null}
                <span className="ml-auto flex gap-2">
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => setResetting(user)}
                    aria-label={`Reset the password of ${user.username}`}
                  >
                    Reset password
                  </button>
                  {user.id !== me.data?.id ? (
                    <button
                      type="button"
                      className={secondaryButton}
                      aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.username}`}
                      onClick={() =>
                        update.mutate(
                          { id: user.id, disabled: !user.disabled },
                          {
                            onSuccess: (u) =>
                              toast(u.disabled ? `${u.username} is disabled: signed out everywhere.` : `${u.username} can sign in again.`),
                          },
                        )
                      }
                    >
                      {user.disabled ? "Enable" : "Disable"}
                    </button>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <ErrorText>{update.error && !resetting ? `Not changed: ${update.error.message}` : ""}</ErrorText>
      <CreateUserForm />
      {resetting ? <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} /> : null}
    </section>
  );
}

function CreateUserForm() {
  const create = useCreateUser();
  const toast = useToast();
  return (
    <form
      aria-label="Create a user"
      className="grid gap-x-3 sm:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const displayName = String(data.get("display_name")).trim();
        create.mutate(
          {
            username: String(data.get("username")).trim(),
            password: String(data.get("password")),
            display_name: displayName || null,
            is_admin: false,
          },
          { onSuccess: (user) => (toast(`Created ${user.username}. Add them to a workspace in its Members.`), form.reset()) },
        );
      }}
    >
      <h3 className="mb-2 text-sm font-semibold sm:col-span-3">Create a user</h3>
      <Field label="Username" name="username" required autoComplete="off" />
      <Field label="Display name (optional)" name="display_name" autoComplete="off" />
      <Field
        label="Password"
        placeholder="8 or more characters"
        name="password"
        type="password"
        required
        minLength={8}
        autoComplete="new-password"
      />
      <div className="sm:col-span-3">
        <ErrorText>{create.error ? `Not created: ${create.error.message}` : ""}</ErrorText>
        <button type="submit" className={primaryButton} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create user"}
        </button>
      </div>
    </form>
  );
}

/** A new password signs the user out everywhere (the server revokes their other credentials). */
function ResetPasswordDialog({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const update = useUpdateUser();
  const toast = useToast();
  return (
    <Dialog open onClose={onClose} title={`Reset the password of ${user.username}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const password = String(new FormData(event.currentTarget).get("password"));
          update.mutate(
            { id: user.id, password },
            { onSuccess: () => (toast(`New password set for ${user.username}; they are signed out elsewhere.`), onClose()) },
          );
        }}
      >
        <p className="mb-3 text-sm">Tell them the new password yourself. Their sessions, API keys and agent tokens stop working.</p>
        <Field
          label="New password (8 or more characters)"
          name="password"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
        />
        <ErrorText>{update.error ? `Not changed: ${update.error.message}` : ""}</ErrorText>
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={update.isPending}>
            {update.isPending ? "Setting…" : "Set password"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
