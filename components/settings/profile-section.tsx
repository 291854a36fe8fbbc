"use client";

import { useQuery } from "@tanstack/react-query";
import { currentUserQuery } from "@/lib/client/current-user";
import { useUpdateMe } from "@/lib/client/users";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { card } from "@/components/settings/settings-card";

/** Your own display name (what others see instead of your username) and email address (how Slack finds you). */
export function ProfileSection() {
  const me = useQuery(currentUserQuery());
  const update = useUpdateMe();
  const toast = useToast();
  if (!me.data) return null;
  const label = "text-sm";
  const field = `${inputClass} mt-0 min-w-0`;
  return (
    <section aria-labelledby="profile-title" className={card}>
      <h2 id="profile-title" className="mb-2 font-semibold">
        Your profile <span className="text-sm font-normal text-slate-600 dark:text-slate-400">(signed in as @{me.data.username})</span>
      </h2>
      <form
        key={`${me.data.display_name ?? ""} ${me.data.email ?? ""}`}
        className="grid gap-2 sm:grid-cols-[auto_1fr] sm:items-center"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const name = String(form.get("display_name")).trim();
          const email = String(form.get("email")).trim();
          update.mutate(
            { display_name: name || null, email: email || null },
            {
              onSuccess: (u) =>
                toast(u.display_name ? `Saved: you are shown as ${u.display_name}.` : "Saved: you are shown by your username."),
            },
          );
        }}
      >
        <label htmlFor="display-name" className={label}>
          Display name
        </label>
        <input
          id="display-name"
          name="display_name"
          defaultValue={me.data.display_name ?? ""}
          maxLength={100}
          placeholder={me.data.username}
          className={field}
        />
        <label htmlFor="profile-email" className={label}>
          Email address
        </label>
        <div>
          <input
            id="profile-email"
            name="email"
            type="email"
            defaultValue={me.data.email ?? ""}
            maxLength={254}
            className={`${field} w-full`}
            aria-describedby="profile-email-help"
          />
          <p id="profile-email-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            Agents&apos; questions posted to Slack can be answered from the Slack account with this address.
          </p>
        </div>
        <button type="submit" className={`${secondaryButton} justify-self-start sm:col-start-2`} disabled={update.isPending}>
          Save
        </button>
      </form>
      <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
    </section>
  );
}
