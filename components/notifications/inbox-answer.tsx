"use client";

import { useState } from "react";
import { ErrorText, inputClass, primaryButton } from "@/components/ui/field";
import { useAnswerFromInbox, type Notification } from "@/lib/client/notifications";

/** A question answered where it is read: its options as buttons (one tap), or a line of text. */
export function InboxAnswer({ notification, options }: { notification: Notification; options: string[] | null }) {
  const answer = useAnswerFromInbox();
  const [text, setText] = useState("");
  const send = (value: string) => answer.mutate({ notification, answer: value });
  if (answer.isSuccess) return <p className="mt-2 text-green-800 dark:text-green-300">Answered.</p>;
  return (
    <div className="mt-2">
      {options && options.length > 0 ? (
        <div role="group" aria-label="Answer" className="flex flex-wrap gap-2">
          {options.map((option) => (
            <button
              key={option}
              type="button"
              className={`${primaryButton} min-h-11`}
              disabled={answer.isPending}
              onClick={() => send(option)}
            >
              {option}
            </button>
          ))}
        </div>
      ) : (
        <form
          className="flex gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim()) send(text.trim());
          }}
        >
          <label className="sr-only" htmlFor={`answer-${notification.id}`}>
            Your answer
          </label>
          <input
            id={`answer-${notification.id}`}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Your answer"
            className={`${inputClass} mt-0 min-h-11`}
          />
          <button type="submit" className={`${primaryButton} min-h-11`} disabled={answer.isPending || !text.trim()}>
            Answer
          </button>
        </form>
      )}
      <ErrorText>{answer.error ? `Not answered: ${answer.error.message}` : ""}</ErrorText>
    </div>
  );
}
