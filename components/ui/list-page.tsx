"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { primaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";

/**
 * A page that lists one kind of record (projects, schedules): its heading with a "New …" button,
 * and the list's loading, error and empty states, so each page only says how a list looks.
 */
export function ListPage<T>({
  title,
  noun,
  newLabel,
  onNew,
  query,
  skeleton,
  empty,
  children,
  dialog,
}: {
  title: string;
  /** The records in words, for "Loading the projects" and "Could not load the projects". */
  noun: string;
  newLabel: string;
  onNew: () => void;
  query: UseQueryResult<T[], Error>;
  skeleton: { rows: number; className: string };
  empty: React.ReactNode;
  children: (items: T[]) => React.ReactNode;
  /** The page's editor, shown over it while open. */
  dialog: React.ReactNode;
}) {
  return (
    <main className="mx-auto max-w-5xl px-6 py-6">
      <div className="mb-4 flex items-center">
        <h1 className="text-xl font-semibold">{title}</h1>
        <button type="button" className={`${primaryButton} ml-auto`} onClick={onNew}>
          {newLabel}
        </button>
      </div>
      <SectionState
        query={query}
        what={`the ${noun}`}
        skeleton={skeleton}
        empty={empty}
        emptyClassName="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400"
      >
        {children}
      </SectionState>
      {dialog}
    </main>
  );
}
