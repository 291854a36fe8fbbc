"use client";

import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ErrorText, Field, primaryButton } from "@/components/ui/field";

export function LoginForm() {
  const router = useRouter();
  const next = useSearchParams().get("callbackUrl") ?? "/";
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const result = await signIn("credentials", {
      username: String(form.get("username")),
      password: String(form.get("password")),
      redirect: false,
    });
    setPending(false);
    if (result?.ok && !result.error) {
      router.replace(next.startsWith("/") ? next : "/");
      router.refresh();
    } else {
      setError(result?.error === "CredentialsSignin" || !result?.error ? "Incorrect username or password" : result.error);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Sign in">
      <Field label="Username" name="username" autoComplete="username" required autoFocus />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <ErrorText>{error}</ErrorText>
      <button type="submit" className={`${primaryButton} w-full`} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
