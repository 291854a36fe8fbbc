import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { needsSetup } from "@/lib/auth/needs-setup";
import { SetupForm } from "@/components/auth/setup-form";
import { clientAddress } from "@/lib/auth/client-address";
import { setupCodeRequired } from "@/lib/auth/setup-code";
import { passwordLoginEnabled } from "@/lib/config";

export const dynamic = "force-dynamic";

export default async function SetupPage() {
  const db = await getDb();
  // With password login off, the first single sign-on user becomes the administrator (docs/sso.md).
  if (!passwordLoginEnabled() || !(await needsSetup(db))) redirect("/login");
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="mb-1 text-2xl font-semibold">Create the first administrator</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        This page is shown once, while the board has no users. The administrator can add everyone else.
      </p>
      <SetupForm codeRequired={setupCodeRequired(clientAddress(await headers()))} />
    </main>
  );
}
