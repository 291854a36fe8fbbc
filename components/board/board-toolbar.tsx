"use client";

import type { Project } from "@/lib/client/types";
import { AssigneeFilter, type AssigneeFilterProps } from "@/components/board/assignee-filter";

/** Above the board: the project and assignee filters and the title search ("/" focuses it). */
export function BoardToolbar({
  title,
  projects,
  projectId,
  onProjectChange,
  search,
  onSearchChange,
  searchRef,
  assignee,
}: {
  title: string;
  projects: Project[];
  projectId: string | null;
  onProjectChange: (id: string | null) => void;
  search: string;
  onSearchChange: (search: string) => void;
  searchRef: React.Ref<HTMLInputElement>;
  assignee: AssigneeFilterProps;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 px-3 pt-4 pb-3 sm:px-6">
      <h1 className="sr-only">{title}</h1>
      <label className="flex items-center gap-2 text-sm">
        <span>Project</span>
        <select
          value={projectId ?? ""}
          onChange={(event) => onProjectChange(event.target.value || null)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <AssigneeFilter {...assignee} />
      <label className="flex items-center gap-2 text-sm max-sm:w-full">
        <span className="sr-only">Search task titles</span>
        <input
          ref={searchRef}
          type="search"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          placeholder="Search titles  ( / )"
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm sm:w-64 dark:border-slate-700 dark:bg-slate-900"
        />
      </label>
      <p className="ml-auto text-xs max-md:hidden text-slate-600 dark:text-slate-400">
        Press <kbd className="font-mono">?</kbd> for shortcuts
      </p>
    </div>
  );
}
