import { requirePageSession } from "@/lib/auth/session";
import { WorkspaceShell } from "@/components/workspace/workspace-shell";

export const dynamic = "force-dynamic";

export default async function WorkspaceLayout({ children, params }: { children: React.ReactNode; params: Promise<{ id: string }> }) {
  const user = await requirePageSession();
  const { id } = await params;
  return (
    <WorkspaceShell workspaceId={id} username={user.name}>
      {children}
    </WorkspaceShell>
  );
}
