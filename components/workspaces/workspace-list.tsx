"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useCreateWorkspace, workspacesQuery } from "@/lib/client/workspaces";
import { ErrorText, primaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

export function WorkspaceList() {
  const [name, setName] = useState("");
  const workspaces = useQuery(workspacesQuery());
  const router = useRouter();
  // A new workspace opens on its (empty) board: that is where its first tasks go.
  const create = useCreateWorkspace((created) => router.push(`/w/${created.id}`));

  return (
    <section aria-label="Workspaces">
      <form
        className="mb-6 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <label className="sr-only" htmlFor="new-workspace">
          New workspace name
        </label>
        <input
          id="new-workspace"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="New workspace name"
          maxLength={200}
          className="flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-700 dark:bg-slate-900"
        />
        {/* After success the board is loading: a second click would create a second workspace. */}
        <button type="submit" className={primaryButton} disabled={create.isPending || create.isSuccess || !name.trim()}>
          {create.isPending ? "Creating…" : create.isSuccess ? "Opening…" : "Create workspace"}
        </button>
      </form>
      <ErrorText>{create.error?.message}</ErrorText>

      <SectionState
        query={workspaces}
        what="your workspaces"
        empty="No workspaces yet. Name one above to create your first board."
        emptyClassName="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400"
        skeleton={{ rows: 3, className: "h-14" }}
      >
        {(data) => (
          <ul className="space-y-2">
            {data.map((workspace) => (
              <li key={workspace.id}>
                <Link
                  href={`/w/${workspace.id}`}
                  className="flex items-center justify-between rounded-lg border border-slate-200 bg-white px-4 py-3 hover:border-blue-500 dark:border-slate-800 dark:bg-slate-900"
                >
                  <span className="font-medium">{workspace.name}</span>
                  <span className="text-xs text-slate-600 dark:text-slate-400">{workspace.role}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </SectionState>
    </section>
  );
}
