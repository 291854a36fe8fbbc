"use client";

import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ErrorText, Field, primaryButton, secondaryButton } from "@/components/ui/field";

/**
 * `passwordLogin`: whether the username/password form is offered (PASSWORD_LOGIN); `ssoName`: the
 * single sign-on provider's name (OIDC_NAME), null when none is configured. Both come from the server.
 */
export function LoginForm({ passwordLogin = true, ssoName = null }: { passwordLogin?: boolean; ssoName?: string | null }) {
  const router = useRouter();
  const params = useSearchParams();
  const next = safeNext(params.get("callbackUrl"));
  const [error, setError] = useState(() => refusalMessage(params.get("error"), ssoName));
  const [pending, setPending] = useState<"password" | "sso" | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending("password");
    setError("");
    const result = await signIn("credentials", {
      username: String(form.get("username")),
      password: String(form.get("password")),
      redirect: false,
    });
    setPending(null);
    if (result?.ok && !result.error) {
      router.replace(next);
      router.refresh();
    } else {
      setError(result?.error === "CredentialsSignin" || !result?.error ? "Incorrect username or password" : result.error);
    }
  }

  async function signInWithSso() {
    setPending("sso");
    setError("");
    // Leaves the page for the provider's; it comes back to /api/auth/callback/oidc, then to `next`.
    await signIn("oidc", { callbackUrl: next });
  }

  return (
    <div>
      <ErrorText>{error}</ErrorText>
      {ssoName && (
        <button
          type="button"
          className={`${passwordLogin ? secondaryButton : primaryButton} w-full py-2`}
          onClick={signInWithSso}
          disabled={pending !== null}
        >
          {pending === "sso" ? `Going to ${ssoName}…` : `Sign in with ${ssoName}`}
        </button>
      )}
      {ssoName && passwordLogin && (
        <p className="my-4 text-center text-xs text-slate-500 uppercase dark:text-slate-400" aria-hidden="true">
          or
        </p>
      )}
      {passwordLogin && (
        <form onSubmit={submit} aria-label="Sign in">
          <Field label="Username" name="username" autoComplete="username" required autoFocus={!ssoName} />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className={`${primaryButton} w-full`} disabled={pending !== null}>
            {pending === "password" ? "Signing in…" : "Sign in"}
          </button>
        </form>
      )}
      {!passwordLogin && !ssoName && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Password login is turned off and no single sign-on provider is configured: ask the server&apos;s administrator to set OIDC_ISSUER.
        </p>
      )}
    </div>
  );
}

/** Only paths on this site: a callbackUrl pointing elsewhere would make the login page an open redirect. */
function safeNext(value: string | null): string {
  return value && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}

/** The words for an `?error=` code that next-auth or the single sign-on check (lib/auth/sign-in-with-oidc.ts) sent back. */
function refusalMessage(code: string | null, ssoName: string | null): string {
  const provider = ssoName ?? "single sign-on";
  switch (code) {
    case null:
    case "":
      return "";
    case "SsoNotAllowed":
      return `Your ${provider} account is not allowed on this board: neither its verified email domain nor its groups are on this server's list. Ask an administrator to add you.`;
    case "SsoDisabled":
      return "This account is disabled. Ask an administrator to enable it.";
    case "SsoNotSetUp":
      return "This board is not set up yet: its administrator must be created on the setup page first.";
    case "SsoBadClaims":
      return `${provider} did not say who you are (no subject in its answer). Try again, or ask an administrator.`;
    case "SessionRequired":
      return "Please sign in to continue.";
    default:
      return `Signing in with ${provider} failed (${code}). Try again; if it keeps failing, ask an administrator to check the server's log.`;
  }
}
