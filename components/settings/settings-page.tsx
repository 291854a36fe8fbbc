"use client";

import { useQuery } from "@tanstack/react-query";
import { workspaceQuery } from "@/lib/client/workspaces";
import { DependenciesSection } from "@/components/settings/dependencies-section";
import { BoardAutomationSection } from "@/components/settings/board-automation-section";
import { WebhooksSection } from "@/components/settings/webhooks-section";
import { ReactionsSection } from "@/components/settings/reactions-section";
import { AgentsSection } from "@/components/settings/agents-section";
import { RunLimitSection } from "@/components/settings/run-limit-section";
import { RepositorySection } from "@/components/settings/repository-section";
import { CodehostSection } from "@/components/settings/codehost-section";
import { MembersSection } from "@/components/settings/members-section";
import { ApiKeysSection } from "@/components/settings/api-keys-section";
import { ConnectedAppsSection } from "@/components/settings/connected-apps-section";
import { RunnersSection } from "@/components/settings/runners-section";
import { WorkspaceRunnersSection } from "@/components/settings/workspace-runners-section";
import { currentUserQuery } from "@/lib/client/current-user";
import { UsersSection } from "@/components/settings/users-section";
import { ProfileSection } from "@/components/settings/profile-section";
import { SlackSection } from "@/components/settings/slack-section";
import { NotificationsSection } from "@/components/settings/notifications-section";
import { EscalationSection } from "@/components/settings/escalation-section";

/** `boardUrl`: the server's configured public URL (PUBLIC_URL or NEXTAUTH_URL), for the runner's start command; else the page's own origin. */
export function SettingsPage({ workspaceId, boardUrl }: { workspaceId: string; boardUrl: string | null }) {
  return (
    <main className="mx-auto max-w-3xl space-y-8 px-6 py-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <CodehostSection workspaceId={workspaceId} />
      <RepositorySection workspaceId={workspaceId} />
      <AgentsSection workspaceId={workspaceId} />
      <RunLimitSection workspaceId={workspaceId} />
      <MembersSection workspaceId={workspaceId} />
      <UsersSection />
      <BoardAutomationSection workspaceId={workspaceId} />
      <DependenciesSection workspaceId={workspaceId} />
      <OwnersWebhooks workspaceId={workspaceId} />
      <ProfileSection />
      <NotificationsSection />
      <EscalationSection workspaceId={workspaceId} />
      <ApiKeysSection />
      <ConnectedAppsSection />
      <WorkspaceRunnersSection workspaceId={workspaceId} />
      <AdminRunners boardUrl={boardUrl} />
    </main>
  );
}

function OwnersWebhooks({ workspaceId }: { workspaceId: string }) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  if (!workspace.data) return null;
  const isOwner = workspace.data.role === "owner";
  return (
    <>
      <WebhooksSection workspaceId={workspaceId} isOwner={isOwner} />
      {isOwner ? <SlackSection workspaceId={workspaceId} /> : null}
      {isOwner ? <ReactionsSection workspaceId={workspaceId} /> : null}
    </>
  );
}

/** Runners are the server's, not the workspace's: only server administrators see them (the API says 403 to anyone else). */
function AdminRunners({ boardUrl }: { boardUrl: string | null }) {
  const me = useQuery(currentUserQuery());
  return me.data?.is_admin ? <RunnersSection boardUrl={boardUrl} /> : null;
}
