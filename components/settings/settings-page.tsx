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

export function SettingsPage({ workspaceId }: { workspaceId: string }) {
  return (
    <main className="mx-auto max-w-3xl space-y-8 px-6 py-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <CodehostSection workspaceId={workspaceId} />
      <RepositorySection workspaceId={workspaceId} />
      <AgentsSection workspaceId={workspaceId} />
      <RunLimitSection workspaceId={workspaceId} />
      <MembersSection workspaceId={workspaceId} />
      <BoardAutomationSection workspaceId={workspaceId} />
      <DependenciesSection workspaceId={workspaceId} />
      <OwnersWebhooks workspaceId={workspaceId} />
      <ApiKeysSection />
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
      {isOwner ? <ReactionsSection workspaceId={workspaceId} /> : null}
    </>
  );
}
