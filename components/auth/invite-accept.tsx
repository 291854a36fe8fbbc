"use client";

import { useQuery } from "@tanstack/react-query";
import { signIn, signOut } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { invitationPreviewQuery, useAcceptInvitation } from "@/lib/client/invitations";
import { ErrorText, Field, primaryButton, secondaryButton, Spinner } from "@/components/ui/field";
import { ROLE_WORDS } from "@/components/settings/role-select";
import { formatDateTime } from "@/lib/client/dates";

/**
 * The invitation page: what the link opens, then either "Join" as the signed-in person, or a new
 * account made here (then signed in), or a way to sign in with an existing one and come back.
 */
export function InviteAccept({
  token,
  signedInAs,
  passwordLogin,
  ssoName,
}: {
  token: string;
  signedInAs: string | null;
  passwordLogin: boolean;
  ssoName: string | null;
}) {
  const router = useRouter();
  const preview = useQuery(invitationPreviewQuery(token));
  const accept = useAcceptInvitation(token);
  const [signingIn, setSigningIn] = useState(false);
  const here = `/invite/${encodeURIComponent(token)}`;

  if (preview.isPending) return <Spinner label="Loading the invitation" />;
  if (preview.isError) {
    return (
      <div>
        <h1 className="mb-3 text-2xl font-semibold">This invitation cannot be used</h1>
        <ErrorText>{preview.error.message}</ErrorText>
        <Link href="/" className="text-sm text-blue-700 underline dark:text-blue-300">
          Go to the board
        </Link>
      </div>
    );
  }
  const { workspace_name: workspace, role } = preview.data;
  const joined = (workspaceId: string) => {
    router.replace(`/w/${workspaceId}`);
    router.refresh();
  };

  return (
    <div>
      <h1 className="mb-1 text-2xl font-semibold">Join {workspace}</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        You are invited as <strong>{role}</strong>. {ROLE_WORDS[role]}. The link works once and expires on{" "}
        <time dateTime={preview.data.expires_at}>{formatDateTime(preview.data.expires_at)}</time>.
      </p>
      <ErrorText>{accept.error ? `Not joined: ${accept.error.message}` : ""}</ErrorText>
      {signedInAs ? (
        <div className="space-y-3">
          <button
            type="button"
            className={`${primaryButton} w-full`}
            disabled={accept.isPending}
            onClick={() => accept.mutate(null, { onSuccess: (done) => joined(done.workspace_id) })}
          >
            {accept.isPending ? "Joining…" : `Join ${workspace} as ${signedInAs}`}
          </button>
          <button type="button" className={`${secondaryButton} w-full`} onClick={() => signOut({ callbackUrl: here })}>
            Not {signedInAs}? Sign out and use another account
          </button>
        </div>
      ) : (
        <>
          {passwordLogin ? (
            <form
              aria-label="Create your account"
              onSubmit={(event) => {
                event.preventDefault();
                const form = new FormData(event.currentTarget);
                const account = {
                  username: String(form.get("username")).trim(),
                  password: String(form.get("password")),
                  display_name: String(form.get("display_name")).trim() || null,
                };
                accept.mutate(account, {
                  onSuccess: async (done) => {
                    setSigningIn(true);
                    await signIn("credentials", { username: account.username, password: account.password, redirect: false });
                    joined(done.workspace_id);
                  },
                });
              }}
            >
              <h2 className="mb-3 font-semibold">Create your account</h2>
              <Field
                label="Username"
                name="username"
                autoComplete="username"
                required
                autoFocus
                pattern="[A-Za-z0-9_.@\-]+"
                title="Letters, digits and _ . @ - only"
              />
              <Field label="Your name (optional)" name="display_name" autoComplete="name" maxLength={100} />
              <Field
                label="Password (8 or more characters)"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
              />
              <button type="submit" className={`${primaryButton} w-full`} disabled={accept.isPending || signingIn}>
                {accept.isPending || signingIn ? "Joining…" : `Create account and join ${workspace}`}
              </button>
            </form>
          ) : null}
          <p className="mt-6 text-sm">
            Already have an account{ssoName ? ` or one at ${ssoName}` : ""}?{" "}
            <Link
              href={`/login?callbackUrl=${encodeURIComponent(here)}`}
              className="font-medium text-blue-700 underline dark:text-blue-300"
            >
              Sign in, then join
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
