"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { projectTasksPath } from "@/lib/client/task-link";
import { projectsQuery, useDeleteProject, useSaveProject } from "@/lib/client/projects";
import type { Project, ProjectInput } from "@/lib/client/types";
import { PrioritySelect } from "@/components/ui/priority-select";
import { PROJECT_STATUSES } from "@/lib/projects/statuses";
import { Dialog } from "@/components/ui/dialog";
import { DialogActions } from "@/components/ui/dialog-actions";
import { inputClass, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { ListPage } from "@/components/ui/list-page";
import { ConfirmDelete } from "@/components/ui/confirm-delete";
import { PRIORITY_STYLE } from "@/components/board/card-badges";

export function ProjectsPage({ workspaceId }: { workspaceId: string }) {
  const projects = useQuery(projectsQuery(workspaceId));
  const [editing, setEditing] = useState<Project | "new" | null>(null);
  const remove = useDeleteProject(workspaceId);
  const toast = useToast();

  return (
    <ListPage
      title="Projects"
      noun="projects"
      newLabel="New project"
      onNew={() => setEditing("new")}
      query={projects}
      skeleton={{ rows: 3, className: "h-12" }}
      empty="No projects yet. Projects group tasks and split them into phases; create one with “New project”."
      dialog={
        editing ? (
          <ProjectDialog workspaceId={workspaceId} project={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
        ) : null
      }
    >
      {(items) => (
        // Below md the table keeps its columns and scrolls inside its own box, never the page.
        <div role="region" aria-label="Projects table" tabIndex={0} className="relative overflow-x-auto rounded-lg">
          <table className="w-full min-w-[40rem] overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm dark:border-slate-800 dark:bg-slate-900">
            <thead className="bg-slate-100 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              <tr>
                <th className="px-3 py-2">Name</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2">Priority</th>
                <th className="px-3 py-2">Tags</th>
                <th className="px-3 py-2">Phases</th>
                <th className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((project) => (
                <tr key={project.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="px-3 py-2">
                    <Link
                      href={projectTasksPath(workspaceId, project.id)}
                      className="font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
                    >
                      {project.name}
                    </Link>
                    {project.description ? (
                      <div className="line-clamp-1 text-xs text-slate-600 dark:text-slate-400">{project.description}</div>
                    ) : null}
                  </td>
                  <td className="px-3 py-2">{project.status}</td>
                  <td className="px-3 py-2">
                    <span
                      className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${PRIORITY_STYLE[project.priority] ?? PRIORITY_STYLE.p3}`}
                    >
                      {project.priority}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-xs">{project.tags.join(", ")}</td>
                  <td className="px-3 py-2 text-xs">{(project.phases ?? []).join(" → ")}</td>
                  <td className="px-3 py-2 text-right">
                    <span className="inline-flex flex-wrap justify-end gap-2">
                      <button
                        type="button"
                        className={secondaryButton}
                        onClick={() => setEditing(project)}
                        aria-label={`Edit ${project.name}`}
                      >
                        Edit
                      </button>
                      <ConfirmDelete
                        label={`Delete project ${project.name}`}
                        confirmLabel="Delete this project"
                        pending={remove.isPending && remove.variables === project.id}
                        onDelete={() =>
                          remove.mutate(project.id, {
                            onSuccess: () => toast(`Deleted “${project.name}”; its tasks stay, without a project`),
                            onError: (error) => toast(`“${project.name}” was not deleted: ${error.message}`, "error"),
                          })
                        }
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ListPage>
  );
}

function ProjectDialog({ workspaceId, project, onClose }: { workspaceId: string; project: Project | null; onClose: () => void }) {
  const toast = useToast();
  const [form, setForm] = useState({
    name: project?.name ?? "",
    description: project?.description ?? "",
    // The response types status and priority as plain strings; the server only ever sends these values.
    status: (project?.status ?? "active") as NonNullable<ProjectInput["status"]>,
    priority: (project?.priority ?? "p3") as NonNullable<ProjectInput["priority"]>,
    tags: (project?.tags ?? []).join(", "),
    phases: (project?.phases ?? []).join("\n"),
  });
  const save = useSaveProject(workspaceId, project?.id ?? null);
  return (
    <Dialog open onClose={onClose} title={project ? `Edit ${project.name}` : "New project"}>
      <form
        aria-label={project ? "Edit project" : "New project"}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            {
              name: form.name.trim(),
              description: form.description,
              status: form.status,
              priority: form.priority,
              tags: split(form.tags, ","),
              phases: split(form.phases, "\n"),
            },
            {
              onSuccess: (saved) => {
                toast(project ? `Saved “${saved.name}”` : `Created “${saved.name}”`);
                onClose();
              },
            },
          );
        }}
      >
        <label className="mb-3 block text-sm font-medium">
          Name
          <input
            required
            maxLength={200}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            className={inputClass}
          />
        </label>
        <label className="mb-3 block text-sm font-medium">
          Description
          <textarea
            rows={3}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            className={inputClass}
          />
        </label>
        <div className="grid grid-cols-2 gap-4">
          <label className="mb-3 block text-sm font-medium">
            Status
            <select
              value={form.status}
              onChange={(e) => setForm({ ...form, status: e.target.value as NonNullable<ProjectInput["status"]> })}
              className={inputClass}
            >
              {PROJECT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </label>
          <PrioritySelect value={form.priority} onChange={(priority) => setForm({ ...form, priority })} className={inputClass} />
        </div>
        <label className="mb-3 block text-sm font-medium">
          Tags (comma-separated)
          <input value={form.tags} onChange={(e) => setForm({ ...form, tags: e.target.value })} className={inputClass} />
        </label>
        <label className="mb-3 block text-sm font-medium">
          Phases (one per line, in order)
          <textarea rows={3} value={form.phases} onChange={(e) => setForm({ ...form, phases: e.target.value })} className={inputClass} />
        </label>
        <DialogActions
          error={save.error}
          pending={save.isPending}
          submitLabel={project ? "Save project" : "Create project"}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

function split(text: string, separator: string): string[] {
  return text
    .split(separator)
    .map((part) => part.trim())
    .filter(Boolean);
}
