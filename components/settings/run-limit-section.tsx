"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useUpdateWorkspace, workspaceQuery } from "@/lib/client/workspaces";
import { ErrorText, inputClass, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

// Settings › Runs: the workspace's `max_concurrent_runs` (docs/runners.md). Runners take at most that
// many of its runs at once; the rest wait, queued, and say so. Owners change it; empty is no cap.

export function RunLimitSection({ workspaceId }: { workspaceId: string }) {
  const workspace = useQuery(workspaceQuery(workspaceId));
  return (
    <section
      aria-labelledby="run-limit-title"
      className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="run-limit-title" className="mb-2 font-semibold">
        Runs
      </h2>
      <SectionState query={workspace} what="the workspace">
        {(data) => (
          <RunLimitForm
            key={data.max_concurrent_runs ?? "none"}
            workspaceId={workspaceId}
            saved={data.max_concurrent_runs}
            isOwner={data.role === "owner"}
          />
        )}
      </SectionState>
    </section>
  );
}

function RunLimitForm({ workspaceId, saved, isOwner }: { workspaceId: string; saved: number | null; isOwner: boolean }) {
  const update = useUpdateWorkspace(workspaceId);
  const [value, setValue] = useState(saved === null ? "" : String(saved));
  return (
    <form
      className="text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ max_concurrent_runs: value.trim() === "" ? null : Number(value) });
      }}
    >
      <label className="block font-medium" htmlFor="max-concurrent-runs">
        At most this many runs at once (empty: no limit)
      </label>
      <div className="flex items-end gap-2">
        <input
          id="max-concurrent-runs"
          type="number"
          min={1}
          step={1}
          value={value}
          disabled={!isOwner || update.isPending}
          onChange={(event) => setValue(event.target.value)}
          className={`${inputClass} max-w-32`}
        />
        {isOwner ? (
          <button type="submit" className={secondaryButton} disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save"}
          </button>
        ) : null}
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Runs past the limit wait in the queue, and their cards say why, until one of the workspace&apos;s runs ends.
        {isOwner ? null : " Only owners change this."}
      </p>
      <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
    </form>
  );
}
