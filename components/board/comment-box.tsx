"use client";

import { useEffect, useState } from "react";
import { ErrorText, inputClass, primaryButton } from "@/components/ui/field";

// The comment box under a task's timeline. What is typed is kept in the browser's storage per task
// until it is sent, so a reload gives it back; Ctrl+Enter (⌘+Enter on a Mac) sends it.

export const commentDraftKey = (taskId: string) => `taskboard:comment-draft:${taskId}`;

export function CommentBox({
  taskId,
  pending,
  error,
  onSend,
}: {
  taskId: string;
  pending: boolean;
  error: string | null;
  /** The box empties at once; `restore` puts the text back (a refused comment is not lost). */
  onSend: (body: string, restore: () => void) => void;
}) {
  const [text, setText] = useState(() => readDraft(taskId));
  useEffect(() => {
    try {
      if (text) localStorage.setItem(commentDraftKey(taskId), text);
      else localStorage.removeItem(commentDraftKey(taskId));
    } catch {
      // Storage refused (a private window): the draft lives in memory only.
    }
  }, [taskId, text]);

  const send = () => {
    if (!text.trim() || pending) return;
    const body = text;
    setText("");
    onSend(body, () => setText((current) => current || body));
  };
  return (
    <form
      className="mt-3 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label htmlFor={`comment-${taskId}`} className="block text-sm font-medium">
        Comment
      </label>
      <textarea
        id={`comment-${taskId}`}
        className={`${inputClass} min-h-20`}
        value={text}
        maxLength={20_000}
        placeholder="Markdown; @name mentions a person or starts an agent"
        aria-describedby={`comment-help-${taskId}`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={`comment-help-${taskId}`} className="text-xs text-slate-600 dark:text-slate-400">
          Ctrl+Enter or ⌘+Enter sends. The draft is kept until it is sent.
        </p>
        <button type="submit" className={primaryButton} disabled={pending || !text.trim()}>
          {pending ? "Sending…" : "Comment"}
        </button>
      </div>
      <ErrorText>{error ? `Not sent: ${error}` : ""}</ErrorText>
    </form>
  );
}

function readDraft(taskId: string): string {
  if (typeof window === "undefined") return "";
  try {
    return localStorage.getItem(commentDraftKey(taskId)) ?? "";
  } catch {
    return "";
  }
}
