"use client";

import Link from "next/link";
import { useCodehostStatus } from "@/lib/client/codehost";
import type { CodehostStatus } from "@/lib/client/types";

export function codehostLabel(status: CodehostStatus | undefined): string {
  if (!status) return "Checking code host…";
  if (status.connected && status.repo) return status.repo;
  if (status.app_configured === false) return "GitHub App not configured";
  return "Not connected";
}

export function CodehostBadge({ workspaceId }: { workspaceId: string }) {
  const status = useCodehostStatus(workspaceId);
  const label = status.isError ? "Code host unknown" : codehostLabel(status.data);
  const connected = Boolean(status.data?.connected);
  return (
    <Link
      href={`/w/${workspaceId}/settings`}
      data-testid="codehost-status"
      title={`Code host: ${label}`}
      className="flex max-w-44 items-center gap-1.5 truncate rounded-md px-2 py-1 text-xs text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${connected ? "bg-green-600" : "bg-slate-400"}`} />
      {/* Below 1280 px the dot alone (with its name for screen readers and on hover) saves room. */}
      <span className="sr-only xl:not-sr-only xl:truncate">{label}</span>
    </Link>
  );
}
