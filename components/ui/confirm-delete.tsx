"use client";

import { useRef, useState } from "react";
import { dangerButton, secondaryButton } from "@/components/ui/field";

// "Delete" that asks once, in place: the first press shows the real (red) button and Cancel; Cancel
// puts the keyboard back on "Delete", so nobody loses their place.

export function ConfirmDelete({
  label,
  confirmLabel,
  pending,
  onDelete,
}: {
  /** The accessible name of the first button, naming what goes ("Delete schedule Nightly"). */
  label: string;
  /** The red button's words ("Delete this schedule"). */
  confirmLabel: string;
  pending: boolean;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  if (!confirming)
    return (
      <button ref={first} type="button" className={secondaryButton} aria-label={label} onClick={() => setConfirming(true)}>
        Delete
      </button>
    );
  return (
    <span className="inline-flex gap-2">
      <button type="button" className={dangerButton} disabled={pending} onClick={onDelete} autoFocus>
        {pending ? "Deleting…" : confirmLabel}
      </button>
      <button
        type="button"
        className={secondaryButton}
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
