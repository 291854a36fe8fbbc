// A task's shareable address: the board with the task open (?task=<id>), which the workspace shell
// opens on load and closes with Back (components/workspace/workspace-shell.tsx).
export function taskLink(workspaceId: string, taskId: string): string {
  return `${window.location.origin}/w/${workspaceId}?task=${encodeURIComponent(taskId)}`;
}

/** A project's tasks: the board filtered by it (lib/client/board-filters.ts reads `project_id`). */
export function projectTasksPath(workspaceId: string, projectId: string): string {
  return `/w/${workspaceId}?project_id=${encodeURIComponent(projectId)}`;
}
