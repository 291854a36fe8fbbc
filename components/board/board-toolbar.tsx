"use client";

import type { Project } from "@/lib/client/types";
import type { BoardFilters } from "@/lib/client/board-filters";
import { PRIORITIES } from "@/lib/tasks/columns";
import { AssigneeFilter, type AssigneeFilterProps } from "@/components/board/assignee-filter";

const field = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

/** Above the board: the project, assignee, priority and tag filters and the search ("/" focuses it). */
export function BoardToolbar({
  title,
  projects,
  projectId,
  onProjectChange,
  search,
  onSearchChange,
  searchRef,
  assignee,
  tag,
  priority,
  onFilterChange,
}: {
  title: string;
  projects: Project[];
  projectId: string | null;
  onProjectChange: (id: string | null) => void;
  search: string;
  onSearchChange: (search: string) => void;
  searchRef: React.Ref<HTMLInputElement>;
  assignee: AssigneeFilterProps;
  tag: string | null;
  priority: string | null;
  onFilterChange: (name: keyof BoardFilters, value: string | null) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 px-3 pt-4 pb-3 sm:px-6">
      <h1 className="sr-only">{title}</h1>
      <label className="flex items-center gap-2 text-sm">
        <span>Project</span>
        <select value={projectId ?? ""} onChange={(event) => onProjectChange(event.target.value || null)} className={field}>
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <AssigneeFilter {...assignee} />
      <label className="flex items-center gap-2 text-sm">
        <span>Priority</span>
        <select value={priority ?? ""} onChange={(event) => onFilterChange("priority", event.target.value || null)} className={field}>
          <option value="">Any</option>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm">
        <span>Tag</span>
        <input
          // Keyed by the value: Back or a link sets it afresh; the filter applies when the field is left or Enter is pressed.
          key={tag ?? ""}
          defaultValue={tag ?? ""}
          onBlur={(event) => onFilterChange("tag", event.target.value.trim() || null)}
          onKeyDown={(event) => event.key === "Enter" && onFilterChange("tag", event.currentTarget.value.trim() || null)}
          placeholder="any"
          maxLength={50}
          className={`${field} w-24`}
        />
      </label>
      <label className="flex items-center gap-2 text-sm max-sm:w-full">
        <span className="sr-only">Search tasks</span>
        <input
          ref={searchRef}
          type="search"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          placeholder="Search tasks or #number  ( / )"
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm sm:w-64 dark:border-slate-700 dark:bg-slate-900"
        />
      </label>
      <p className="ml-auto text-xs max-md:hidden text-slate-600 dark:text-slate-400">
        Press <kbd className="font-mono">?</kbd> for shortcuts
      </p>
    </div>
  );
}
