"use client";

import { WorkspaceSwitchSection } from "@/components/settings/workspace-switch-section";

// Settings › Board: the workspace's `auto_move_tasks` and `auto_start_assigned`
// (docs/board-automation.md). Owners change them.

export function BoardAutomationSection({ workspaceId }: { workspaceId: string }) {
  return (
    <>
      <WorkspaceSwitchSection
        workspaceId={workspaceId}
        setting="auto_move_tasks"
        title="Board"
        label="Move tasks along with their agent runs"
        hint="A run that starts moves its task from Backlog or To do to In progress; a run that succeeds with changes on the task's branch moves it from In progress to In review. Tasks people put elsewhere stay where they are."
      />
      <WorkspaceSwitchSection
        workspaceId={workspaceId}
        setting="auto_start_assigned"
        title="Assigned agents"
        label="Start an agent's run when it is assigned"
        hint="Assigning an agent profile to a task in To do or In progress starts a run of that profile, once per assignment. Saving the same assignees again starts nothing."
      />
    </>
  );
}
