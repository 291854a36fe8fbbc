import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/auth/next-auth-options";
import { originFromHeaders } from "@/lib/auth/mcp-audience";
import { consentRequest } from "@/lib/oauth/consent";
import { ConsentForm } from "@/components/oauth/consent-form";

export const dynamic = "force-dynamic";

// Where the authorization server sends the browser when an MCP client asks to act for a person
// (docs/mcp.md, "OAuth"): signed out, to the login page and back here; signed in, Allow or Deny.
export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const session = await getServerSession(authOptions());
  if (!session?.user?.name) redirect(`/login?callbackUrl=${encodeURIComponent(`/oauth/consent/${uid}`)}`);
  const request = await consentRequest(originFromHeaders(await headers(), null), uid);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-10">
      {request ? (
        <ConsentForm uid={uid} clientName={request.clientName} redirectHost={request.redirectHost} username={session.user.name} />
      ) : (
        <>
          <h1 className="mb-2 text-xl font-semibold">This sign-in request has expired</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Start again from the application that sent you here (for Claude Code: <code>/mcp</code>, then Authenticate).
          </p>
        </>
      )}
    </main>
  );
}
