"use client";

import { useDeleteRunner } from "@/lib/client/runners";
import { timeAgo } from "@/lib/client/relative-time";
import type { Runner } from "@/lib/client/types";
import { ErrorText } from "@/components/ui/field";
import { ConfirmDelete } from "@/components/ui/confirm-delete";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/lib/client/dates";

// One runner in Settings → Runners: online or not, its load, labels, last call, version and sandbox.
// A runner without a sandbox is said in red: its agents can read and write what its user can.

const muted = "text-slate-600 dark:text-slate-400";

export function RunnerItem({ runner }: { runner: Runner }) {
  const online = runner.status === "online";
  const unsandboxed = runner.sandbox === "none";
  return (
    <li className="py-3 text-sm" data-testid="runner" aria-label={`Runner ${runner.name}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{runner.name}</span>
        <span
          data-testid="runner-status"
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${
            online
              ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200"
              : "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
          }`}
        >
          {online ? "online" : "offline"}
        </span>
        {unsandboxed ? (
          <span
            data-testid="runner-unsandboxed"
            className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-semibold text-white dark:bg-red-800 dark:text-red-50"
          >
            unsandboxed
          </span>
        ) : null}
        <span className="ml-auto" />
        <DeleteRunner runner={runner} />
      </div>
      <dl className={`mt-1 flex flex-wrap gap-x-4 gap-y-0.5 ${muted}`}>
        <Detail term="Running">
          <span data-testid="runner-load">
            {runner.running} of {runner.capacity}
          </span>
        </Detail>
        <Detail term="Labels">
          {runner.labels.length === 0
            ? "none"
            : runner.labels.map((label) => (
                <code key={label} className="mr-1 rounded bg-slate-100 px-1 text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                  {label}
                </code>
              ))}
        </Detail>
        <Detail term="Takes">{runner.dedicated ? "only the workspaces that chose it" : "every workspace that allows it"}</Detail>
        <Detail term="Last seen">
          {runner.last_seen_at ? (
            <time dateTime={runner.last_seen_at} title={formatDateTime(runner.last_seen_at)}>
              {timeAgo(runner.last_seen_at)}
            </time>
          ) : (
            "never: not started yet"
          )}
        </Detail>
        <Detail term="Version">{runner.version ?? "not reported"}</Detail>
        <Detail term="Sandbox">
          {runner.sandbox === null ? (
            "not reported"
          ) : unsandboxed ? (
            <span className="text-red-700 dark:text-red-400">none</span>
          ) : (
            runner.sandbox
          )}
        </Detail>
      </dl>
      {unsandboxed ? (
        <p data-testid="runner-unsandboxed-why" className="mt-1 text-red-700 dark:text-red-400">
          Its agents run unconfined, as the runner&apos;s own user with its files and network: it was started with AGENT_SANDBOX=off, or
          bubblewrap is missing on its machine (install bubblewrap and socat, docs/runners.md).
        </p>
      ) : null}
      {runner.jobs_refused ? (
        <p data-testid="runner-jobs-refused" className="mt-1 font-medium text-red-700 dark:text-red-400">
          It gets no jobs: this server requires a sandbox (RUNNERS_REQUIRE_SANDBOX).
        </p>
      ) : null}
    </li>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt>{term}:</dt>
      <dd className="text-slate-800 dark:text-slate-200">{children}</dd>
    </div>
  );
}

/** Delete asks first: the token stops working at once and the runner stops what it runs. */
function DeleteRunner({ runner }: { runner: Runner }) {
  const remove = useDeleteRunner();
  const toast = useToast();
  return (
    <>
      <ConfirmDelete
        label={`Delete runner ${runner.name}`}
        confirmLabel={`Delete ${runner.name}`}
        warning={`Its token stops working at once${runner.running > 0 ? `, and the ${runner.running} run(s) it holds end failed` : ""}.`}
        pending={remove.isPending}
        onDelete={() =>
          remove.mutate(runner.id, {
            onSuccess: () => toast(`Runner ${runner.name} deleted; its token no longer works.`),
          })
        }
      />
      <ErrorText>{remove.error ? `Not deleted: ${remove.error.message}` : ""}</ErrorText>
    </>
  );
}
