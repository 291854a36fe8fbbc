"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiClientError } from "@/lib/client/api";
import { createFirstAdmin } from "@/lib/client/setup";
import { ErrorText, Field, primaryButton } from "@/components/ui/field";

/** `codeRequired`: opened from another machine than the server's, so the setup code from its log is needed. */
export function SetupForm({ codeRequired = false }: { codeRequired?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get("username"));
    const password = String(form.get("password"));
    if (password !== form.get("confirm")) return setError("The two passwords differ");
    setPending(true);
    setError("");
    try {
      const code = codeRequired ? String(form.get("code")) : undefined;
      await createFirstAdmin({ username, password, code });
      await signIn("credentials", { username, password, redirect: false });
      router.replace("/");
      router.refresh();
    } catch (caught) {
      setError(caught instanceof ApiClientError ? caught.message : "Could not reach the server");
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Create the first administrator">
      {codeRequired && <Field label="Setup code (printed in the server's log)" name="code" autoComplete="off" required />}
      <Field label="Username" name="username" autoComplete="username" required autoFocus />
      <Field label="Password (at least 8 characters)" name="password" type="password" minLength={8} autoComplete="new-password" required />
      <Field label="Confirm password" name="confirm" type="password" minLength={8} autoComplete="new-password" required />
      <ErrorText>{error}</ErrorText>
      <button type="submit" className={`${primaryButton} w-full`} disabled={pending}>
        {pending ? "Creating…" : "Create administrator"}
      </button>
    </form>
  );
}
