"use client";

import { useState } from "react";
import { ErrorText, primaryButton, secondaryButton } from "@/components/ui/field";

/**
 * Allow or Deny for an MCP client's sign-in request. The answer is sent with fetch and the browser
 * then goes where the server says (the authorization server, which redirects to the client): a
 * form post could not, since the site's Content-Security-Policy keeps forms to this origin, and
 * the client's address is elsewhere (often http://localhost:<port>/callback).
 */
export function ConsentForm(props: { uid: string; clientName: string; redirectHost: string; username: string }) {
  const [pending, setPending] = useState<"allow" | "deny" | null>(null);
  const [error, setError] = useState("");

  async function decide(decision: "allow" | "deny") {
    setPending(decision);
    setError("");
    const response = await fetch(`/oauth/consent/${encodeURIComponent(props.uid)}/decision`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision }),
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as { location?: string; detail?: string } | null;
    if (response?.ok && body?.location) {
      window.location.assign(body.location);
      return;
    }
    setPending(null);
    setError(body?.detail ?? "The answer could not be sent. Reload the page and try again.");
  }

  return (
    <section
      aria-labelledby="consent-title"
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <p className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Connect an application</p>
      <h1 id="consent-title" className="mb-3 text-xl font-semibold break-words">
        {props.clientName} wants to use the board as {props.username}
      </h1>
      <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
        It will be able to read and change tasks, ask questions and start agent runs in the workspaces you belong to, with your role in each
        (a viewer still changes nothing). It cannot see your password.
      </p>
      <p className="mb-5 text-sm text-slate-600 dark:text-slate-400">
        After you answer you return to <span className="font-mono break-all">{props.redirectHost}</span>. Its access ends when it signs out
        (revoking its token), when your account is disabled or its password changes, and at the latest after 30 days.
      </p>
      <ErrorText>{error}</ErrorText>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={() => decide("deny")} disabled={pending !== null}>
          {pending === "deny" ? "Denying…" : "Deny"}
        </button>
        <button type="button" className={primaryButton} onClick={() => decide("allow")} disabled={pending !== null} autoFocus>
          {pending === "allow" ? "Allowing…" : "Allow"}
        </button>
      </div>
    </section>
  );
}
