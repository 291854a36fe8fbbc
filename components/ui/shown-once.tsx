"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { inputClass, secondaryButton } from "@/components/ui/field";

/**
 * A secret the server returns once (an API key, a webhook's signing secret): shown read-only with
 * Copy and Done, because nothing can show it again after Done.
 */
export function ShownOnce({
  message,
  value,
  label,
  what,
  onDone,
  className = "mb-3",
}: {
  message: string;
  value: string;
  /** The input's accessible name. */
  label: string;
  /** What to select by hand when the browser refuses the clipboard ("the key"). */
  what: string;
  onDone: () => void;
  className?: string;
}) {
  return (
    <div
      role="status"
      className={`${className} rounded-md border border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-600 dark:bg-amber-950`}
    >
      <p className="mb-2 font-medium">{message}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={value}
          aria-label={label}
          className={`${inputClass} mt-0 flex-1 font-mono`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton value={value} what={what} />
        <button type="button" className={secondaryButton} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
