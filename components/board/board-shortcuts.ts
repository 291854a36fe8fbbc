"use client";

import { useEffect, type RefObject } from "react";
import type { ColumnHandle } from "@/components/board/board-column";

/** The board's own keys: `n` adds a task to the first column, `/` goes to the search. */
export function useBoardShortcuts(firstColumn: RefObject<ColumnHandle | null>, searchRef: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "n") {
        event.preventDefault();
        firstColumn.current?.focusQuickAdd();
      } else if (event.key === "/") {
        event.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [firstColumn, searchRef]);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
