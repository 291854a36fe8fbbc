"use client";

import { useEffect, useState } from "react";

// What a person typed in a task's form and has not saved: kept in the browser's storage as they
// type, so a reload or a closed tab gives it back, and reported as `dirty` so closing the dialog can
// ask first. Saved (or discarded), it is forgotten.

export const draftKey = (taskId: string) => `taskboard:task-draft:${taskId}`;

export function useTaskDraft<D>(taskId: string, loaded: D, onDirtyChange?: (dirty: boolean) => void) {
  const [edited, setEdited] = useState<D | null>(() => readDraft<D>(taskId));
  const [restored] = useState(() => edited !== null);
  const dirty = edited !== null && JSON.stringify(edited) !== JSON.stringify(loaded);

  useEffect(() => {
    try {
      if (dirty) localStorage.setItem(draftKey(taskId), JSON.stringify(edited));
      else localStorage.removeItem(draftKey(taskId));
    } catch {
      // Storage full or refused (a private window): the draft lives in memory only.
    }
  }, [taskId, edited, dirty]);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  return { draft: edited ?? loaded, setDraft: setEdited, dirty, restored: restored && dirty, forget: () => setEdited(null) };
}

function readDraft<D>(taskId: string): D | null {
  if (typeof window === "undefined") return null;
  try {
    const stored = localStorage.getItem(draftKey(taskId));
    return stored ? (JSON.parse(stored) as D) : null;
  } catch {
    return null;
  }
}
