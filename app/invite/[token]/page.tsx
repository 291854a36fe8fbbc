import { getServerSession } from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";
import { oidcConfig, passwordLoginEnabled } from "@/lib/config";
import { InviteAccept } from "@/components/auth/invite-accept";

export const dynamic = "force-dynamic";

// An invitation link (docs/api.md, "Invitations"): open to anyone holding it, signed in or not.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const session = await getServerSession(authOptions());
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-10">
      <InviteAccept
        token={token}
        signedInAs={session?.user?.name ?? null}
        passwordLogin={passwordLoginEnabled()}
        ssoName={oidcConfig()?.name ?? null}
      />
    </main>
  );
}
