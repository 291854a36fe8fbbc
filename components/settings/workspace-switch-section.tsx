"use client";

import { useQuery } from "@tanstack/react-query";
import { useUpdateWorkspace, workspaceQuery } from "@/lib/client/workspaces";
import { ErrorText } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

// A Settings section holding one of the workspace record's on/off settings (PATCH /api/workspaces/{id}).
// Owners change it; it saves at once. Others see it, disabled, and why.

type Setting = "auto_start_unblocked" | "auto_move_tasks" | "auto_start_assigned";

export function WorkspaceSwitchSection({
  workspaceId,
  setting,
  title,
  label,
  hint,
}: {
  workspaceId: string;
  setting: Setting;
  title: string;
  label: string;
  hint?: string;
}) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  const update = useUpdateWorkspace(workspaceId);
  const isOwner = workspace.data?.role === "owner";
  const titleId = `${setting}-title`;
  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
      <h2 id={titleId} className="mb-2 font-semibold">
        {title}
      </h2>
      <SectionState query={workspace} what="the workspace">
        {(data) => (
          <>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                // Shows the person's choice while it is being saved (the server's answer replaces it).
                checked={update.isPending ? Boolean(update.variables?.[setting]) : data[setting]}
                disabled={!isOwner || update.isPending}
                onChange={(event) => update.mutate({ [setting]: event.target.checked })}
              />
              <span>
                {label}
                {hint ? <span className="block text-slate-600 dark:text-slate-400">{hint}</span> : null}
                {isOwner ? null : <span className="block text-slate-600 dark:text-slate-400">Only owners change this.</span>}
              </span>
            </label>
            <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
          </>
        )}
      </SectionState>
    </section>
  );
}
