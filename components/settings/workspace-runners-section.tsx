"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useSetWorkspaceRunners, workspaceRunnersQuery } from "@/lib/client/runners";
import { workspaceQuery } from "@/lib/client/workspaces";
import type { WorkspaceRunners } from "@/lib/client/types";
import { ErrorText, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { card } from "@/components/settings/settings-card";

// Settings → Runners, the workspace's part (docs/runners.md "Runners per workspace"): which of the
// server's runners may take this workspace's jobs, which carry its repository credentials and agent
// keys to the runner's machine. Every member sees the choice and the server's RUNNERS_REQUIRE_SANDBOX;
// owners change the choice. Administrators also see the server's runners in the section below.

const muted = "text-slate-600 dark:text-slate-400";

export function WorkspaceRunnersSection({ workspaceId }: { workspaceId: string }) {
  const runners = useQuery(workspaceRunnersQuery(workspaceId));
  const workspace = useQuery(workspaceQuery(workspaceId));
  return (
    <section aria-labelledby="workspace-runners-title" className={card}>
      <h2 id="workspace-runners-title" className="mb-1 font-semibold">
        Who runs this workspace&apos;s agents
      </h2>
      <p className={`mb-3 text-sm ${muted}`}>
        A run&apos;s job carries this workspace&apos;s repository credentials and agent keys to the runner that takes it. Choose which of
        the server&apos;s runners may take them.
      </p>
      <SectionState query={runners} what="the workspace's runners">
        {(data) => (
          <>
            <SandboxSetting required={data.require_sandbox} />
            <ChoiceForm
              key={JSON.stringify(data.runner_ids)}
              workspaceId={workspaceId}
              data={data}
              isOwner={workspace.data?.role === "owner"}
            />
          </>
        )}
      </SectionState>
    </section>
  );
}

function SandboxSetting({ required }: { required: boolean }) {
  return (
    <p
      data-testid="runners-require-sandbox"
      className={`mb-3 rounded-md border p-2 text-sm ${
        required ? "border-slate-200 dark:border-slate-800" : "border-red-300 text-red-800 dark:border-red-800 dark:text-red-300"
      }`}
    >
      {required
        ? "This server gives no jobs to a runner without a sandbox (RUNNERS_REQUIRE_SANDBOX): such a runner is listed, and takes nothing."
        : "This server also gives jobs to runners without a sandbox (RUNNERS_REQUIRE_SANDBOX=false): their agents run unconfined, with the runner's user, files and network."}
    </p>
  );
}

function ChoiceForm({ workspaceId, data, isOwner }: { workspaceId: string; data: WorkspaceRunners; isOwner: boolean }) {
  const save = useSetWorkspaceRunners(workspaceId);
  const [onlyChosen, setOnlyChosen] = useState(data.runner_ids !== null);
  // With no choice stored, every runner takes the jobs but the dedicated ones: the same set checked.
  const [chosen, setChosen] = useState(
    new Set(data.runner_ids ?? data.runners.filter((runner) => !runner.dedicated).map((runner) => runner.id)),
  );
  const disabled = !isOwner || save.isPending;
  const toggle = (id: string) =>
    setChosen((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <form
      className="space-y-2 text-sm"
      aria-label="Runners that may take this workspace's jobs"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(onlyChosen ? data.runners.filter((runner) => chosen.has(runner.id)).map((runner) => runner.id) : null);
      }}
    >
      <fieldset className="space-y-1" disabled={disabled}>
        <legend className="sr-only">Which runners</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="runner-choice" checked={!onlyChosen} onChange={() => setOnlyChosen(false)} />
          Every shared runner of this server, including ones added later
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="runner-choice" checked={onlyChosen} onChange={() => setOnlyChosen(true)} />
          Only the runners checked below
        </label>
      </fieldset>
      {data.runners.length === 0 ? (
        <p className={muted}>This server has no runners yet: runs wait in the queue until an administrator adds one.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {data.runners.map((runner) => (
            <li key={runner.id} className="px-3 py-2" data-testid="workspace-runner">
              <label className="flex flex-wrap items-center gap-2">
                <input
                  type="checkbox"
                  checked={onlyChosen ? chosen.has(runner.id) : runner.allowed}
                  disabled={disabled || !onlyChosen}
                  onChange={() => toggle(runner.id)}
                />
                <span className="font-medium break-all">{runner.name}</span>
                <span className={muted}>{runner.status}</span>
                {runner.dedicated ? (
                  <span className="rounded border border-slate-300 px-1.5 py-0.5 text-xs dark:border-slate-700">
                    dedicated: only workspaces that choose it
                  </span>
                ) : null}
                {runner.sandbox === "none" ? (
                  <span className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-semibold text-white dark:bg-red-800 dark:text-red-50">
                    unsandboxed
                  </span>
                ) : null}
              </label>
              {runner.jobs_refused ? (
                <p className="mt-1 text-red-700 dark:text-red-400" data-testid="workspace-runner-refused">
                  Gets no jobs: it runs agents without a sandbox, and this server requires one.
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {isOwner ? (
        <button type="submit" className={secondaryButton} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
      ) : (
        <p className={muted}>Only owners change this.</p>
      )}
      {onlyChosen && chosen.size === 0 && isOwner ? (
        <p className="text-amber-800 dark:text-amber-300">With no runner checked, this workspace&apos;s runs wait in the queue.</p>
      ) : null}
      <ErrorText>{save.error ? `Not saved: ${save.error.message}` : ""}</ErrorText>
    </form>
  );
}
