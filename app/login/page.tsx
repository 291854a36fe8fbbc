import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { needsSetup } from "@/lib/users/needs-setup";
import { LoginForm } from "@/components/auth/login-form";

export const dynamic = "force-dynamic";

export default async function LoginPage() {
  const db = await getDb();
  if (await needsSetup(db)) redirect("/setup");
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="mb-1 text-2xl font-semibold">Sign in to Taskboard</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Where people and coding agents share one board.</p>
      <LoginForm />
    </main>
  );
}
