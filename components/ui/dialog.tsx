"use client";

import { useEffect, useId, useRef } from "react";

// The native modal <dialog>: the browser makes the rest of the page inert (so focus stays inside),
// closes it on Escape and returns focus to where it was. We only keep React's state in step.
export function Dialog({
  open,
  onClose,
  title,
  children,
  wide = false,
  returnFocus,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
  /** true: for forms with more fields; "full": for views such as a run's log and diff. */
  wide?: boolean | "full";
  /** Where the keyboard goes back to when what had it is gone (a menu item that opened the dialog). */
  returnFocus?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const returnTo = useRef(returnFocus);
  useEffect(() => {
    returnTo.current = returnFocus;
  }, [returnFocus]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // The browser gives focus back on close(), but not when React removes an open dialog: put it back
  // where it was (or where the caller says), never on the page's body.
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      const target = previous?.isConnected && previous !== document.body ? previous : returnTo.current?.();
      requestAnimationFrame(() => target?.focus());
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === ref.current) onClose();
      }}
      className={`m-auto max-h-[90dvh] w-[calc(100%-1rem)] sm:w-[calc(100%-2rem)] ${wide === "full" ? "max-w-6xl" : wide ? "max-w-3xl" : "max-w-lg"} overflow-y-auto rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      {open ? (
        <div className="p-4 sm:p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded-md px-2 py-1 text-slate-600 max-sm:min-h-11 max-sm:min-w-11 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            >
              ✕
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
