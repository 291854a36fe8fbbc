"use client";

import { useState } from "react";
import { useStartRun, useTaskDiff } from "@/lib/client/runs";
import type { DiffFile, DiffLine, ReviewComment } from "@/lib/client/types";
import { ErrorText, primaryButton, Spinner } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { LineRow } from "@/components/runs/diff-line-row";

// The task branch's changes (files, then hunks) with review: a person comments on lines and sends the
// comments back as a follow-up run ("Request changes"); the runner turns them into instructions with
// file:line references.

export function DiffView({
  workspaceId,
  taskId,
  agentId,
  onStarted,
}: {
  workspaceId: string;
  taskId: string;
  agentId: string | null;
  onStarted: (executionId: string) => void;
}) {
  const diff = useTaskDiff(workspaceId, taskId);
  const start = useStartRun(workspaceId, taskId);
  const toast = useToast();
  const [comments, setComments] = useState<ReviewComment[]>([]);
  const [editing, setEditing] = useState<{ path: string; line: number } | null>(null);

  if (diff.isPending) return <Spinner label="Loading the diff" />;
  if (diff.isError) return <p className="text-sm text-slate-700 dark:text-slate-300">No diff to show: {diff.error.message}</p>;
  const data = diff.data;

  const requestChanges = () =>
    start.mutate(
      { comments, ...(agentId ? { agent_id: agentId } : {}) },
      {
        onSuccess: (execution) => {
          setComments([]);
          toast(`Sent ${comments.length} comment${comments.length === 1 ? "" : "s"} to the agent`);
          onStarted(execution.id);
        },
      },
    );

  return (
    <div data-testid="diff-view">
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
        <span>
          <code>{data.branch}</code> against <code>{data.base}</code>
          {data.commit_sha ? (
            <>
              {" "}
              at <code>{data.commit_sha.slice(0, 10)}</code>
            </>
          ) : null}
        </span>
        <span>
          {data.files_changed} file{data.files_changed === 1 ? "" : "s"},{" "}
          <span className="text-green-800 dark:text-green-300">+{data.lines_added}</span>{" "}
          <span className="text-red-800 dark:text-red-300">−{data.lines_removed}</span>
        </span>
        <span className="ml-auto" />
        <button type="button" className={primaryButton} disabled={comments.length === 0 || start.isPending} onClick={requestChanges}>
          {start.isPending ? "Starting…" : `Request changes${comments.length ? ` (${comments.length})` : ""}`}
        </button>
      </div>
      <ErrorText>{start.error ? `Not sent: ${start.error.message}` : null}</ErrorText>
      {data.truncated ? (
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          The diff is too large to show whole: files past the limit are listed without their lines.
        </p>
      ) : null}
      {data.files.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">The branch has no changes against {data.base}.</p>
      ) : (
        <>
          <ul aria-label="Changed files" className="mb-3 text-sm">
            {data.files.map((file) => (
              <li key={file.path} className="flex gap-2">
                <a
                  href={`#diff-${encodeURIComponent(file.path)}`}
                  className="truncate font-mono text-blue-800 underline dark:text-blue-300"
                >
                  {file.old_path && file.old_path !== file.path ? `${file.old_path} → ${file.path}` : file.path}
                </a>
                <span className="text-xs text-slate-600 dark:text-slate-400">{file.status}</span>
                <span className="ml-auto text-xs text-green-800 dark:text-green-300">+{file.additions}</span>
                <span className="text-xs text-red-800 dark:text-red-300">−{file.deletions}</span>
              </li>
            ))}
          </ul>
          {data.files.map((file) => (
            <FileDiff
              key={file.path}
              file={file}
              comments={comments.filter((comment) => comment.path === file.path)}
              editing={editing?.path === file.path ? editing.line : null}
              onEdit={(line) => setEditing(line === null ? null : { path: file.path, line })}
              onComment={(line, body) => {
                setComments((list) => [...list, { path: file.path, line, body }]);
                setEditing(null);
              }}
              onRemove={(comment) => setComments((list) => list.filter((c) => c !== comment))}
            />
          ))}
        </>
      )}
    </div>
  );
}

function FileDiff({
  file,
  comments,
  editing,
  onEdit,
  onComment,
  onRemove,
}: {
  file: DiffFile;
  comments: ReviewComment[];
  editing: number | null;
  onEdit: (line: number | null) => void;
  onComment: (line: number, body: string) => void;
  onRemove: (comment: ReviewComment) => void;
}) {
  return (
    <section
      id={`diff-${encodeURIComponent(file.path)}`}
      aria-label={`Changes to ${file.path}`}
      className="mb-4 rounded-md border border-slate-200 dark:border-slate-800"
    >
      <h4 className="border-b border-slate-200 bg-slate-100 px-3 py-1.5 font-mono text-xs font-semibold dark:border-slate-800 dark:bg-slate-800">
        {file.path}
      </h4>
      {file.summary || file.binary ? (
        <p className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">{file.summary ?? "Binary file, not shown."}</p>
      ) : (
        <table className="w-full border-collapse font-mono text-xs">
          <tbody>
            {file.hunks.map((hunk, h) => (
              <HunkRows
                key={h}
                header={hunk.header}
                lines={hunk.lines}
                path={file.path}
                comments={comments}
                editing={editing}
                onEdit={onEdit}
                onComment={onComment}
                onRemove={onRemove}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function HunkRows({
  header,
  lines,
  path,
  comments,
  editing,
  onEdit,
  onComment,
  onRemove,
}: {
  header: string;
  lines: DiffLine[];
  path: string;
  comments: ReviewComment[];
  editing: number | null;
  onEdit: (line: number | null) => void;
  onComment: (line: number, body: string) => void;
  onRemove: (comment: ReviewComment) => void;
}) {
  return (
    <>
      <tr>
        <td colSpan={3} className="bg-blue-50 px-3 py-0.5 text-blue-900 dark:bg-blue-950 dark:text-blue-200">
          {header}
        </td>
      </tr>
      {lines.map((line, i) => {
        // A comment names the line as the file has it now; a removed line only has its old number.
        const number = line.new_line ?? line.old_line;
        const here = comments.filter((comment) => comment.line === number);
        return (
          <LineRow
            key={i}
            line={line}
            number={number}
            path={path}
            comments={here}
            editing={editing !== null && editing === number}
            onEdit={onEdit}
            onComment={onComment}
            onRemove={onRemove}
          />
        );
      })}
    </>
  );
}
