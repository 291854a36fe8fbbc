"use client";

import { useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { ConfirmDelete } from "@/components/ui/confirm-delete";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { CommentMarkdown } from "@/components/board/comment-markdown";
import { formatDateTime } from "@/lib/client/dates";
import type { Comment } from "@/lib/client/types";

// One comment in the timeline: who, when, its Markdown; Edit and Delete on one's own.

export function CommentItem({
  comment,
  mine,
  saving,
  error,
  onSave,
  onDelete,
}: {
  comment: Comment;
  mine: boolean;
  saving: boolean;
  error: string | null;
  onSave: (body: string, done: () => void) => void;
  onDelete: () => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const who = comment.author.kind === "agent" ? `${comment.author.name} (agent)` : comment.author.name;
  return (
    <li
      aria-label={`Comment by ${who}`}
      className="rounded-md border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <Avatar id={comment.author.id} name={comment.author.name} kind={comment.author.kind} decorative />
        <span className="font-medium">{who}</span>
        <time dateTime={comment.created_at} className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
          {formatDateTime(comment.created_at)}
        </time>
        {comment.edited ? <span className="text-xs text-slate-600 dark:text-slate-400">(edited)</span> : null}
      </div>
      {editing === null ? (
        <CommentMarkdown text={comment.body} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (editing.trim()) onSave(editing, () => setEditing(null));
          }}
          className="space-y-2"
        >
          <textarea
            aria-label="Edit comment"
            className={`${inputClass} min-h-20`}
            value={editing}
            maxLength={20_000}
            autoFocus
            onChange={(event) => setEditing(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
              if (event.key === "Escape") {
                event.stopPropagation();
                setEditing(null);
              }
            }}
          />
          <div className="flex gap-2">
            <button type="submit" className={primaryButton} disabled={saving || !editing.trim()}>
              {saving ? "Saving…" : "Save comment"}
            </button>
            <button type="button" className={secondaryButton} onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ErrorText>{error ?? ""}</ErrorText>
      {mine && editing === null && !comment.id.startsWith("pending-") ? (
        <div className="mt-2 flex gap-2">
          <button type="button" className={secondaryButton} aria-label="Edit your comment" onClick={() => setEditing(comment.body)}>
            Edit
          </button>
          <ConfirmDelete label="Delete your comment" confirmLabel="Delete this comment" pending={false} onDelete={onDelete} />
        </div>
      ) : null}
    </li>
  );
}
