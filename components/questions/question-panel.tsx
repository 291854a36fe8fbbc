"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { openQuestionsQuery, sortOpen, useAnswerQuestion } from "@/lib/client/questions";
import type { Question } from "@/lib/client/types";
import { useToast } from "@/components/ui/toast";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { SectionState } from "@/components/ui/section-state";
import { AnsweredQuestions } from "@/components/questions/answered-questions";
import { QuestionTaskLink } from "@/components/questions/question-task-link";

/** Answers a question in words typed or picked; says so when the server refuses. */
export function useAnswer(workspaceId: string) {
  const answer = useAnswerQuestion(workspaceId);
  const toast = useToast();
  return (question: Question, text: string, onRefused?: () => void) => {
    if (!text.trim()) return;
    answer.mutate(
      { question, answer: text.trim() },
      {
        onError: (error) => {
          toast(`The answer was not saved: ${error.message}`, "error");
          onRefused?.();
        },
      },
    );
  };
}

export function QuestionPanel({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const questions = useQuery(openQuestionsQuery(workspaceId));
  const answer = useAnswer(workspaceId);
  const [tab, setTab] = useState<"open" | "answered">("open");
  const open = sortOpen(questions.data ?? []);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Below md the panel covers the page like a sheet, so focus goes into it and comes back to where it was.
    if (!window.matchMedia("(max-width: 767px)").matches) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => before?.focus();
  }, []);
  const tabClass = (selected: boolean) =>
    `rounded-md px-3 py-1 text-sm ${selected ? "bg-slate-200 font-medium dark:bg-slate-700" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}`;

  return (
    <aside
      id="questions-panel"
      role="complementary"
      aria-label="Questions"
      onKeyDown={(event) => {
        if (event.key === "Escape" && window.matchMedia("(max-width: 767px)").matches) onClose();
      }}
      className="flex w-96 shrink-0 flex-col border-l max-md:absolute max-md:inset-0 max-md:z-30 max-md:w-full max-md:border-l-0 border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h2 className="font-semibold">Questions</h2>
        <div role="tablist" aria-label="Which questions" className="flex gap-1">
          <button
            type="button"
            role="tab"
            aria-selected={tab === "open"}
            className={tabClass(tab === "open")}
            onClick={() => setTab("open")}
          >
            Open{questions.data ? ` (${open.length})` : ""}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === "answered"}
            className={tabClass(tab === "answered")}
            onClick={() => setTab("answered")}
          >
            Answered
          </button>
        </div>
        <button
          type="button"
          ref={closeRef}
          onClick={onClose}
          aria-label="Close questions"
          className="rounded px-2 py-1 max-md:min-h-11 max-md:min-w-11 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 overflow-y-auto p-4" role="tabpanel">
        {tab === "answered" ? (
          <AnsweredQuestions workspaceId={workspaceId} />
        ) : (
          <SectionState
            query={questions}
            what="the questions"
            skeleton={{ rows: 2, className: "h-28" }}
            isEmpty={() => open.length === 0}
            empty="No open questions. When an agent needs a decision, its question appears here and its card says it waits for an answer."
            emptyClassName="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
          >
            {() => (
              <ul className="space-y-3">
                {open.map((question) => (
                  <QuestionItem key={question.id} question={question} onAnswer={(text) => answer(question, text)} />
                ))}
              </ul>
            )}
          </SectionState>
        )}
      </div>
    </aside>
  );
}

export function QuestionItem({ question, onAnswer }: { question: Question; onAnswer: (answer: string) => void }) {
  const [text, setText] = useState("");
  const ui = useWorkspaceUi();
  const answerable = !ui.readOnly;
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" aria-label={question.content}>
      <QuestionTaskLink question={question} />
      <p className="text-sm font-medium">{question.content}</p>
      {question.context ? <p className="mt-1 text-xs whitespace-pre-wrap text-slate-600 dark:text-slate-400">{question.context}</p> : null}
      {!answerable ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">A viewer reads questions; a member or an owner answers them.</p>
      ) : null}
      {answerable && question.options?.length ? (
        <div className="mt-2 flex flex-wrap gap-2">
          {question.options.map((option) => (
            <button
              key={option}
              type="button"
              onClick={() => onAnswer(option)}
              className="rounded-md border border-blue-700 px-2.5 py-1 text-sm text-blue-800 hover:bg-blue-50 dark:border-blue-400 dark:text-blue-200 dark:hover:bg-blue-950"
            >
              {option}
            </button>
          ))}
        </div>
      ) : null}
      {answerable ? (
        <form
          className="mt-2 flex gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            onAnswer(text);
          }}
        >
          <input
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-label={`Answer: ${question.content}`}
            placeholder="Answer in your own words"
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
          <button type="submit" disabled={!text.trim()} className="rounded-md bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50">
            Answer
          </button>
        </form>
      ) : null}
    </li>
  );
}
