import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/auth/next-auth-options";
import { getDb } from "@/lib/db/client";
import { needsSetup } from "@/lib/auth/needs-setup";
import { passwordLoginEnabled } from "@/lib/config";

/** For server-rendered pages: the signed-in person, or a redirect to setup or sign-in. */
export async function requirePageSession() {
  const session = await getServerSession(authOptions());
  if (session?.user?.name) return session.user as { name: string; isAdmin: boolean };
  const db = await getDb();
  // With password login off there is no setup page: the first SSO user becomes the admin (docs/sso.md).
  redirect(passwordLoginEnabled() && (await needsSetup(db)) ? "/setup" : "/login");
}
