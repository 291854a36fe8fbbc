"use client";

import { useQuery } from "@tanstack/react-query";
import { currentUserQuery } from "@/lib/client/current-user";
import { useUpdateMe } from "@/lib/client/users";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";

/** Your own display name: what others see instead of your username. */
export function ProfileSection() {
  const me = useQuery(currentUserQuery());
  const update = useUpdateMe();
  const toast = useToast();
  if (!me.data) return null;
  return (
    <section aria-labelledby="profile-title" className={card}>
      <h2 id="profile-title" className="mb-2 font-semibold">
        Your profile
      </h2>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const name = String(new FormData(event.currentTarget).get("display_name")).trim();
          update.mutate(name || null, {
            onSuccess: (u) => toast(u.display_name ? `You are shown as ${u.display_name}.` : "You are shown by your username."),
          });
        }}
      >
        <label htmlFor="display-name" className="text-sm">
          Display name <span className="text-slate-600 dark:text-slate-400">(signed in as @{me.data.username})</span>
        </label>
        <input
          id="display-name"
          name="display_name"
          key={me.data.display_name ?? ""}
          defaultValue={me.data.display_name ?? ""}
          maxLength={100}
          placeholder={me.data.username}
          className={`${inputClass} mt-0 min-w-0 flex-1 basis-48`}
        />
        <button type="submit" className={secondaryButton} disabled={update.isPending}>
          Save
        </button>
      </form>
      <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
    </section>
  );
}
