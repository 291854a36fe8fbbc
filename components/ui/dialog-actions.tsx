"use client";

import { ErrorText, primaryButton, secondaryButton } from "@/components/ui/field";

/** The end of a dialog's form: why the last save failed, in words, then Cancel and the submit button. */
export function DialogActions({
  error,
  pending,
  submitLabel,
  onCancel,
}: {
  error: Error | null;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      <ErrorText>{error ? `Not saved: ${error.message}` : ""}</ErrorText>
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </>
  );
}
