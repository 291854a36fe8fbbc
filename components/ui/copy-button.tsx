"use client";

import { secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

/** Copies `value` to the clipboard and says so; when the browser refuses, says what to select by hand. */
export function CopyButton({ value, what, label = "Copy" }: { value: string; what: string; label?: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className={secondaryButton}
      onClick={() =>
        navigator.clipboard
          .writeText(value)
          .then(() => toast("Copied"))
          .catch(() => toast(`Copying was refused by the browser; select ${what} and copy it by hand.`, "error"))
      }
    >
      {label}
    </button>
  );
}
