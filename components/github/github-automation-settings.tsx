"use client";

import { useGithubSettings, useUpdateGithubSettings } from "@/lib/client/codehost";
import type { GithubSettings } from "@/lib/client/types";
import { ErrorText } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

// How the workspace follows GitHub (GET/PATCH …/codehost/github/settings): owners switch each
// automation; others see the switches, disabled. Each switch saves at once.

const OPTIONS: { key: keyof GithubSettings; label: string; hint: string }[] = [
  { key: "merged_to_done", label: "Move a task to Done when its pull request is merged", hint: "On by default." },
  {
    key: "auto_open_pull_request",
    label: "Open a pull request when an agent run succeeds with changes",
    hint: "Pushes the task's branch and opens the pull request with the run's report, as “Open pull request” does.",
  },
  {
    key: "auto_fix_conflicts",
    label: "Fix conflicts automatically when a pull request turns conflicted",
    hint: "Starts the conflict-fixing run at most once per head commit, so a conflict the agent cannot fix does not loop.",
  },
  {
    key: "auto_fix_checks",
    label: "Start an agent run when a pull request's checks fail",
    hint: "The run is told the failing checks' names and summaries; at most once per head commit.",
  },
];

export function GithubAutomationSettings({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const settings = useGithubSettings(workspaceId);
  const update = useUpdateGithubSettings(workspaceId);
  return (
    <fieldset className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800" aria-describedby="github-automations-hint">
      <legend className="mb-1 text-sm font-semibold">Automations</legend>
      <p id="github-automations-hint" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        {canEdit ? "What the board does on its own with this repository's pull requests." : "Only workspace owners change these."}
      </p>
      <SectionState query={settings} what="the automations">
        {(data) => (
          <ul className="space-y-2">
            {OPTIONS.map((option) => (
              <li key={option.key}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={data[option.key]}
                    disabled={!canEdit || update.isPending}
                    aria-describedby={`github-setting-${option.key}`}
                    onChange={(event) => update.mutate({ [option.key]: event.target.checked })}
                  />
                  <span>
                    {option.label}
                    <span id={`github-setting-${option.key}`} className="block text-slate-600 dark:text-slate-400">
                      {option.hint}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
      <ErrorText>{update.error ? `Not saved: ${update.error.message}` : ""}</ErrorText>
    </fieldset>
  );
}
