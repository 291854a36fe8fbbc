"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { parseLabels, runnerCommand, runnersQuery, useCreateRunner } from "@/lib/client/runners";
import type { CreatedRunner } from "@/lib/client/types";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { card } from "@/components/settings/settings-card";
import { RunnerItem } from "@/components/settings/runner-item";

// Settings → Runners (server administrators): the processes that run agents (docs/runners.md). Each
// one's state, load and sandbox; registering one shows its token once, inside the command that
// starts it; deleting one stops its token at once. The list is polled, so a runner just started is
// seen coming online.

const muted = "text-slate-600 dark:text-slate-400";

export function RunnersSection({ boardUrl }: { boardUrl: string | null }) {
  const runners = useQuery(runnersQuery());
  const [created, setCreated] = useState<CreatedRunner | null>(null);
  return (
    <section aria-labelledby="runners-title" className={card}>
      <h2 id="runners-title" className="mb-1 font-semibold">
        Runners
      </h2>
      <p className={`mb-3 text-sm ${muted}`}>
        Runners are the processes that start agents, on this machine or on others, for the workspaces of this server (each workspace&apos;s
        owners may limit theirs to some of them, above). Each agent runs in a sandbox on its runner (docs/runners.md).
      </p>
      <AddRunnerForm onCreated={setCreated} />
      {created ? <RunnerCreated runner={created} boardUrl={boardUrl} onDone={() => setCreated(null)} /> : null}
      <SectionState
        query={runners}
        what="the runners"
        empty="No runners yet: agents wait in the queue until one is added and started."
        emptyClassName={`text-sm ${muted}`}
      >
        {(data) => (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Runners">
            {data.map((runner) => (
              <RunnerItem key={runner.id} runner={runner} />
            ))}
          </ul>
        )}
      </SectionState>
    </section>
  );
}

function AddRunnerForm({ onCreated }: { onCreated: (runner: CreatedRunner) => void }) {
  const [name, setName] = useState("");
  const [capacity, setCapacity] = useState("2");
  const [labels, setLabels] = useState("");
  const [dedicated, setDedicated] = useState(false);
  const create = useCreateRunner();
  return (
    <form
      className="mb-4 space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800"
      aria-label="Add a runner"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { name: name.trim(), capacity: Number(capacity), labels: parseLabels(labels), dedicated },
          {
            onSuccess: (runner) => {
              setName("");
              setCapacity("2");
              setLabels("");
              setDedicated(false);
              onCreated(runner);
            },
          },
        );
      }}
    >
      <div className="flex flex-wrap gap-2">
        <label className="min-w-48 flex-1 text-sm font-medium">
          Name
          <input
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="build-box-1"
            className={inputClass}
          />
        </label>
        <label className="w-28 text-sm font-medium">
          Capacity
          <input
            type="number"
            required
            min={1}
            max={64}
            step={1}
            value={capacity}
            onChange={(e) => setCapacity(e.target.value)}
            aria-describedby="runner-capacity-help"
            className={inputClass}
          />
        </label>
        <label className="min-w-48 flex-1 text-sm font-medium">
          Labels (optional)
          <input
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
            placeholder="docker, gpu"
            aria-describedby="runner-labels-help"
            className={inputClass}
          />
        </label>
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-1" checked={dedicated} onChange={(e) => setDedicated(e.target.checked)} />
        <span>
          Dedicated: it takes only the jobs of workspaces whose owners choose it (a team&apos;s own machine), never those of every
          workspace.
        </span>
      </label>
      <p className={`text-xs ${muted}`}>
        <span id="runner-capacity-help">Capacity: how many runs it takes at once. </span>
        <span id="runner-labels-help">
          Labels, comma-separated: what it offers; a profile that requires labels runs only on runners with all of them.
        </span>
      </p>
      <ErrorText>{create.error ? `No runner added: ${create.error.message}` : ""}</ErrorText>
      <button type="submit" className={primaryButton} disabled={create.isPending || !name.trim()}>
        {create.isPending ? "Adding…" : "Add runner"}
      </button>
    </form>
  );
}

/** The new runner's token and the command that starts it: shown once, since the server keeps only a hash. */
function RunnerCreated({ runner, boardUrl, onDone }: { runner: CreatedRunner; boardUrl: string | null; onDone: () => void }) {
  const command = runnerCommand(boardUrl ?? window.location.origin, runner.token, runner.capacity);
  return (
    <div
      role="status"
      data-testid="runner-created"
      className="mb-4 space-y-2 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-600 dark:bg-amber-950"
    >
      <p className="font-medium">Runner “{runner.name}” added. Copy its token now: it is shown only once.</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={runner.token}
          aria-label="Runner token"
          className={`${inputClass} mt-0 flex-1 font-mono`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton value={runner.token} what="the token" label="Copy token" />
      </div>
      <p>Start it on the machine that will run the agents, in a copy of this project (it runs in the foreground and logs what it does):</p>
      <div className="flex items-start gap-2">
        <code
          data-testid="runner-command"
          className="flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs break-all dark:border-slate-700 dark:bg-slate-900"
        >
          {command}
        </code>
        <CopyButton value={command} what="the command" label="Copy command" />
      </div>
      <button type="button" className={secondaryButton} onClick={onDone}>
        Done
      </button>
    </div>
  );
}
