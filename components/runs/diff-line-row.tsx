"use client";

import { useState } from "react";
import type { DiffLine, ReviewComment } from "@/lib/client/types";
import { inputClass, primaryButton, secondaryButton } from "@/components/ui/field";

/** One line of a diff, its review comments, and the box to write one. */
export function LineRow({
  line,
  number,
  path,
  comments,
  editing,
  onEdit,
  onComment,
  onRemove,
}: {
  line: DiffLine;
  number: number | null;
  path: string;
  comments: ReviewComment[];
  editing: boolean;
  onEdit: (line: number | null) => void;
  onComment: (line: number, body: string) => void;
  onRemove: (comment: ReviewComment) => void;
}) {
  const [body, setBody] = useState("");
  return (
    <>
      <tr className={LINE_STYLE[line.type]}>
        <td className="w-12 px-2 text-right text-slate-500 select-none">{line.old_line ?? ""}</td>
        <td className="w-12 px-2 text-right text-slate-500 select-none">
          {number !== null ? (
            <button
              type="button"
              className="hover:text-blue-800 hover:underline dark:hover:text-blue-300"
              aria-label={`Comment on line ${number} of ${path}`}
              onClick={() => onEdit(number)}
            >
              {line.new_line ?? "+"}
            </button>
          ) : null}
        </td>
        <td className="px-2 break-all whitespace-pre-wrap">
          {line.type === "add" ? "+" : line.type === "del" ? "−" : " "}
          {line.text}
        </td>
      </tr>
      {comments.map((comment, i) => (
        <tr key={`c${i}`}>
          <td colSpan={3} className="bg-amber-50 px-3 py-1 font-sans text-sm dark:bg-amber-950">
            <span className="font-medium">Comment:</span> {comment.body}{" "}
            <button
              type="button"
              className="ml-2 text-xs underline"
              onClick={() => onRemove(comment)}
              aria-label={`Remove comment on line ${comment.line}`}
            >
              Remove
            </button>
          </td>
        </tr>
      ))}
      {editing && number !== null ? (
        <tr>
          <td colSpan={3} className="bg-slate-50 px-3 py-2 font-sans dark:bg-slate-900">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (!body.trim()) return;
                onComment(number, body.trim());
                setBody("");
              }}
            >
              <label className="block text-sm font-medium">
                Comment on {path}:{number}
                <textarea autoFocus rows={2} value={body} onChange={(e) => setBody(e.target.value)} className={inputClass} />
              </label>
              <div className="mt-2 flex gap-2">
                <button type="submit" className={primaryButton}>
                  Add comment
                </button>
                <button type="button" className={secondaryButton} onClick={() => onEdit(null)}>
                  Cancel
                </button>
              </div>
            </form>
          </td>
        </tr>
      ) : null}
    </>
  );
}

const LINE_STYLE: Record<DiffLine["type"], string> = {
  context: "",
  add: "bg-green-50 dark:bg-green-950",
  del: "bg-red-50 dark:bg-red-950",
};
