"use client";

import { useRef, useState } from "react";
import { dangerButton, secondaryButton } from "@/components/ui/field";

// "Delete" that asks once, in place: the first press shows what will happen, the real (red) button
// and Cancel. The keyboard lands on Cancel, so a second Enter never deletes, and Cancel puts it back
// on "Delete", so nobody loses their place.

export function ConfirmDelete({
  label,
  confirmLabel,
  warning,
  verb = "Delete",
  busy = "Deleting…",
  pending,
  onDelete,
}: {
  /** The accessible name of the first button, naming what goes ("Delete schedule Nightly"). */
  label: string;
  /** The red button's words ("Delete this schedule"). */
  confirmLabel: string;
  /** What deleting it does besides, in words, shown beside the red button. */
  warning?: string;
  /** The first button's words, and the red one's while it works (Disconnect, Disconnecting…). */
  verb?: string;
  busy?: string;
  pending: boolean;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  if (!confirming)
    return (
      <button ref={first} type="button" className={secondaryButton} aria-label={label} onClick={() => setConfirming(true)}>
        {verb}
      </button>
    );
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="inline-flex flex-wrap items-center gap-2">
      {warning ? <span className="text-sm">{warning}</span> : null}
      <button type="button" className={dangerButton} disabled={pending} onClick={onDelete}>
        {pending ? busy : confirmLabel}
      </button>
      <button
        type="button"
        className={secondaryButton}
        autoFocus
        onClick={() => {
          setConfirming(false);
          requestAnimationFrame(() => first.current?.focus());
        }}
      >
        Cancel
      </button>
    </span>
  );
}
