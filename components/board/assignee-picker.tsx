"use client";

import { useAssignables, type Assignee } from "@/lib/client/assignees";
import { Avatar } from "@/components/ui/avatar";

// The task dialog's assignees: every member and agent profile of the workspace as a checkbox, so
// Tab, Space and a screen reader work as they do for any form. Ticking an agent on a task in To do
// or In progress starts its run once the task is saved (docs/board-automation.md).

export function AssigneePicker({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: Assignee[];
  onChange: (next: Assignee[]) => void;
}) {
  const { people, agents, isPending, error } = useAssignables(workspaceId);
  const chosen = new Set(value.map(keyOf));
  // Someone assigned who is no longer listed (removed from the workspace) stays visible until unticked.
  const listed = new Set([...people, ...agents].map(keyOf));
  const others = value.filter((a) => !listed.has(keyOf(a)));
  const toggle = (assignee: Assignee) =>
    onChange(chosen.has(keyOf(assignee)) ? value.filter((a) => keyOf(a) !== keyOf(assignee)) : [...value, assignee]);
  return (
    <fieldset className="col-span-2 mb-3 rounded-md border border-slate-300 px-3 pt-1 pb-2 dark:border-slate-700">
      <legend className="px-1 text-sm font-medium">Assignees</legend>
      {isPending ? <p className="text-sm text-slate-600 dark:text-slate-400">Loading people and agents…</p> : null}
      {error ? <p className="text-sm text-red-800 dark:text-red-300">Could not load who can be assigned: {error.message}</p> : null}
      {!isPending && !error ? (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Group title="People" items={[...people, ...others.filter((a) => a.kind === "user")]} chosen={chosen} onToggle={toggle} />
          <Group
            title="Agents"
            items={[...agents, ...others.filter((a) => a.kind === "agent")]}
            chosen={chosen}
            onToggle={toggle}
            empty="No agent profiles yet (Settings → Agents)."
          />
        </div>
      ) : null}
    </fieldset>
  );
}

function Group({
  title,
  items,
  chosen,
  onToggle,
  empty = "Nobody yet.",
}: {
  title: string;
  items: Assignee[];
  chosen: Set<string>;
  onToggle: (assignee: Assignee) => void;
  empty?: string;
}) {
  return (
    <div role="group" aria-label={title} className="py-1">
      <p className="mb-1 text-xs font-semibold text-slate-600 uppercase dark:text-slate-400">{title}</p>
      {items.length === 0 ? <p className="text-xs text-slate-600 dark:text-slate-400">{empty}</p> : null}
      <ul className="max-h-40 overflow-y-auto">
        {items.map((assignee) => (
          <li key={keyOf(assignee)}>
            <label className="flex min-h-9 cursor-pointer items-center gap-2 rounded px-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
              <input type="checkbox" checked={chosen.has(keyOf(assignee))} onChange={() => onToggle(assignee)} />
              <Avatar id={assignee.id} name={assignee.name} kind={assignee.kind} decorative />
              <span className="truncate">{assignee.name}</span>
              {assignee.kind === "agent" ? <span className="text-xs text-slate-600 dark:text-slate-400">agent</span> : null}
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

function keyOf(assignee: Assignee): string {
  return `${assignee.kind}:${assignee.id}`;
}
