import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { needsSetup } from "@/lib/auth/needs-setup";
import { oidcConfig, passwordLoginEnabled } from "@/lib/config";
import { LoginForm } from "@/components/auth/login-form";

export const dynamic = "force-dynamic";

// Which ways to sign in are read here, on the server at request time, so one build serves any
// OIDC_* / PASSWORD_LOGIN settings (docs/sso.md).
export default async function LoginPage() {
  const db = await getDb();
  const passwordLogin = passwordLoginEnabled();
  const setupOpen = await needsSetup(db);
  // With password login off there is no setup page: the first allowed SSO user becomes the admin.
  if (setupOpen && passwordLogin) redirect("/setup");
  const sso = oidcConfig();
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="mb-1 text-2xl font-semibold">Sign in to Taskboard</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Where people and coding agents share one board.</p>
      {setupOpen && sso && (
        <p className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
          This board has no users yet: the first person to sign in with {sso.name} becomes its administrator.
        </p>
      )}
      <LoginForm passwordLogin={passwordLogin} ssoName={sso?.name ?? null} />
    </main>
  );
}
