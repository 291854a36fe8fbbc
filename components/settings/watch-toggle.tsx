"use client";

import { useState } from "react";
import { useWatch, useSetWatch } from "@/lib/client/watch";
import { ErrorText } from "@/components/ui/field";

// The person's own watch of this workspace's questions: every question asked here reaches them,
// not only their tasks'. Viewers are never asked, so they are told instead of offered it.

export function WatchToggle({ workspaceId, isViewer }: { workspaceId: string; isViewer: boolean }) {
  const watch = useWatch(workspaceId);
  const setWatch = useSetWatch(workspaceId);
  // The click's value, held in React state until the save settles: the query cache tells its
  // readers a macrotask later, and a controlled checkbox shows the old value until then (a browser
  // test's check() saw the click "change nothing" in that moment).
  const [clicked, setClicked] = useState<boolean | null>(null);
  if (isViewer) {
    return (
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">Viewers are never asked questions, so there is nothing to watch.</p>
    );
  }
  return (
    <div className="mb-4 text-sm">
      <label className="flex min-h-11 items-center gap-3 font-medium">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={clicked ?? watch.data?.watching ?? false}
          disabled={watch.isPending}
          onChange={(event) => {
            setClicked(event.target.checked);
            setWatch.mutate(event.target.checked, { onSettled: () => setClicked(null) });
          }}
        />
        Tell me of every question asked in this workspace
      </label>
      <p className="text-slate-600 dark:text-slate-400">
        {watch.isPending
          ? "Loading…"
          : "Otherwise you hear of the questions on tasks assigned to you (and, as an owner, on tasks nobody is assigned to)."}
      </p>
      <ErrorText>
        {watch.error ? `Could not load: ${watch.error.message}` : setWatch.error ? `Not saved: ${setWatch.error.message}` : ""}
      </ErrorText>
    </div>
  );
}
