"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useUpdateWorkspace, workspaceQuery } from "@/lib/client/workspaces";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { WatchToggle } from "@/components/settings/watch-toggle";

// Settings › Questions: who hears this workspace's questions (docs/notifications.md). The person's
// own watch, and the workspace's question_escalation_minutes ("Escalation"): a question nobody
// answers for that long goes to every member who can answer.

export function EscalationSection({ workspaceId }: { workspaceId: string }) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  return (
    <section
      aria-labelledby="escalation-title"
      className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="escalation-title" className="mb-2 font-semibold">
        Questions in this workspace
      </h2>
      <SectionState query={workspace} what="the workspace">
        {(data) => (
          <>
            <WatchToggle workspaceId={workspaceId} isViewer={data.role === "viewer"} />
            <EscalationForm
              key={data.question_escalation_minutes}
              workspaceId={workspaceId}
              saved={data.question_escalation_minutes}
              isOwner={data.role === "owner"}
            />
          </>
        )}
      </SectionState>
    </section>
  );
}

function EscalationForm({ workspaceId, saved, isOwner }: { workspaceId: string; saved: number; isOwner: boolean }) {
  const update = useUpdateWorkspace(workspaceId);
  const [value, setValue] = useState(String(saved));
  return (
    <form
      className="text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ question_escalation_minutes: Number(value) });
      }}
    >
      <label className="block font-medium" htmlFor="question-escalation-minutes">
        Tell every member after this many minutes
      </label>
      <div className="flex items-end gap-2">
        <input
          id="question-escalation-minutes"
          type="number"
          min={0}
          max={10080}
          step="any"
          value={value}
          disabled={!isOwner || update.isPending}
          onChange={(event) => setValue(event.target.value)}
          className={`${inputClass} max-w-32`}
        />
        {isOwner ? (
          <button type="submit" className={secondaryButton} disabled={update.isPending || value.trim() === ""}>
            {update.isPending ? "Saving…" : "Save"}
          </button>
        ) : null}
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        A question first reaches its task&apos;s assignees (or the owners). If nobody answers it in this time, every owner and member hears
        of it; viewers never do.{isOwner ? null : " Only owners change this."}
      </p>
      <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
    </form>
  );
}
