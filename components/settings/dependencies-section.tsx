"use client";

import { useQuery } from "@tanstack/react-query";
import { useUpdateWorkspace, workspaceQuery } from "@/lib/client/workspaces";
import { ErrorText } from "@/components/ui/field";

// Settings › Dependencies: the workspace's `auto_start_unblocked` (docs/dependencies.md). Owners change it.

export function DependenciesSection({ workspaceId }: { workspaceId: string }) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  const update = useUpdateWorkspace(workspaceId);
  const isOwner = workspace.data?.role === "owner";
  return (
    <section
      aria-labelledby="dependencies-title"
      className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="dependencies-title" className="mb-2 font-semibold">
        Dependencies
      </h2>
      {workspace.isPending ? (
        <div className="h-6 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      ) : workspace.isError ? (
        <ErrorText>Could not load the workspace: {workspace.error.message}</ErrorText>
      ) : (
        <>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              // Shows the person's choice while it is being saved (the server's answer replaces it).
              checked={update.isPending ? Boolean(update.variables?.auto_start_unblocked) : workspace.data.auto_start_unblocked}
              disabled={!isOwner || update.isPending}
              onChange={(event) => update.mutate({ auto_start_unblocked: event.target.checked })}
            />
            <span>
              Start the default agent on a task in To do when the last task blocking it is done
              {isOwner ? null : <span className="block text-slate-600 dark:text-slate-400">Only owners change this.</span>}
            </span>
          </label>
          <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
        </>
      )}
    </section>
  );
}
