"use client";

import { WorkspaceSwitchSection } from "@/components/settings/workspace-switch-section";

// Settings › Dependencies: the workspace's `auto_start_unblocked` (docs/dependencies.md). Owners change it.

export function DependenciesSection({ workspaceId }: { workspaceId: string }) {
  return (
    <WorkspaceSwitchSection
      workspaceId={workspaceId}
      setting="auto_start_unblocked"
      title="Dependencies"
      label="Start the default agent on a task in To do when the last task blocking it is done"
    />
  );
}
