"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorText, Spinner } from "@/components/ui/field";

/** How the loading state looks: a bar, a small spinner, or rows the size of what will come. */
export type Skeleton = "bar" | "spinner" | { rows: number; className: string };

const muted = "text-sm text-slate-600 dark:text-slate-400";

/**
 * A section's loading, error and empty states, so each section only says how its data looks.
 * Loading is announced (role=status with a label), an error is said in words with a way to try again,
 * and an empty list says so instead of showing nothing.
 */
export function SectionState<T>({
  query,
  what,
  skeleton = "bar",
  empty,
  emptyClassName = muted,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  children,
}: {
  query: UseQueryResult<T, Error>;
  /** The data in words, for "Loading the members" and "Could not load the members". */
  what: string;
  skeleton?: Skeleton;
  /** Shown instead of children when isEmpty says there is nothing; without it, children get the empty data. */
  empty?: React.ReactNode;
  emptyClassName?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => React.ReactNode;
}) {
  if (query.isPending) return <Loading label={`Loading ${what}`} skeleton={skeleton} />;
  // A failed refetch keeps what was loaded on screen; only data that never arrived is an error here.
  if (query.isError && query.data === undefined)
    return (
      <ErrorText>
        Could not load {what}: {query.error.message}{" "}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </ErrorText>
    );
  const data = query.data as T;
  if (empty !== undefined && isEmpty(data)) return <p className={emptyClassName}>{empty}</p>;
  return children(data);
}

function Loading({ label, skeleton }: { label: string; skeleton: Skeleton }) {
  if (skeleton === "spinner") return <Spinner label={label} />;
  if (skeleton === "bar")
    return <div role="status" aria-label={label} className="h-6 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />;
  return (
    <div role="status" aria-label={label} aria-busy="true" className="space-y-2">
      {Array.from({ length: skeleton.rows }, (_, i) => (
        <div key={i} className={`${skeleton.className} animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800`} />
      ))}
    </div>
  );
}
