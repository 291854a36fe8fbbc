"use client";

import { useAssignables } from "@/lib/client/assignees";

// The board's assignee filter: anyone of the workspace from a list, or "Assigned to me" in one
// click. It narrows the loaded cards, as the project filter and the search do. The value is "me",
// a user id or an agent profile id (the API's `assignee` parameter means the same).

export interface AssigneeFilterProps {
  workspaceId: string;
  value: string | null;
  onChange: (value: string | null) => void;
}

export function AssigneeFilter({ workspaceId, value, onChange }: AssigneeFilterProps) {
  const { people, agents } = useAssignables(workspaceId);
  const mine = value === "me";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-2 text-sm">
        <span>Assignee</span>
        <select
          value={value ?? ""}
          onChange={(event) => onChange(event.target.value || null)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          {people.length ? (
            <optgroup label="People">
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {agents.length ? (
            <optgroup label="Agents">
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </label>
      <button
        type="button"
        aria-pressed={mine}
        onClick={() => onChange(mine ? null : "me")}
        className={`rounded-md border px-2.5 py-1.5 text-sm font-medium ${
          mine
            ? "border-blue-700 bg-blue-700 text-white hover:bg-blue-800"
            : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
        }`}
      >
        Assigned to me
      </button>
    </div>
  );
}
