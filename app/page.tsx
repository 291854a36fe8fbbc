import { requirePageSession } from "@/lib/auth/session";
import { AppHeader } from "@/components/app-header";
import { WorkspaceList } from "@/components/workspaces/workspace-list";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const user = await requirePageSession();
  return (
    <>
      <AppHeader username={user.name} />
      <main className="mx-auto max-w-3xl px-6 py-8">
        <h1 className="mb-6 text-2xl font-semibold">Your workspaces</h1>
        <WorkspaceList />
      </main>
    </>
  );
}
