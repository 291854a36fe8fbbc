import fs from "node:fs";
import path from "node:path";

// What an agent is told. The conflict-fixing instructions live in one editable template file; what
// follows it depends on the workspace: with a repository the server merges and lists the conflicted
// files (lib/git/workdir/fix-conflicts-flow.ts), without one the agent merges and pushes itself.

interface TaskFacts {
  id: string;
  title: string;
  description: string;
  prUrl: string | null;
}

export function taskInstructions(task: TaskFacts): string {
  return task.description.trim() ? `${task.title}\n\n${task.description}` : task.title;
}

/** A comment naming an agent: the task, then the comment it was asked in, as it was written. */
export function mentionedInstructions(task: TaskFacts, author: string, body: string): string {
  return `${taskInstructions(task)}\n\n${author} mentioned you in a comment on this task. Do what it asks:\n\n${body}`;
}

export interface ReviewComment {
  path: string;
  line: number;
  body: string;
}

/** A review's "Request changes": the comments follow the instructions, each with its file:line. */
export function withReviewComments(instructions: string, comments: ReviewComment[]): string {
  if (comments.length === 0) return instructions;
  const listed = comments.map((c) => `- ${c.path}:${c.line}: ${c.body.replaceAll("\n", "\n  ")}`).join("\n");
  return `${instructions}\n\nA reviewer requested changes. Address each comment (file:line refers to your branch's current version):\n${listed}`;
}

export function fixConflictsInstructions(task: TaskFacts): string {
  const values: Record<string, string> = {
    task_id: task.id,
    task_title: task.title,
    task_description: task.description.trim() || "(none)",
    pr_url: task.prUrl ?? "",
  };
  return template().replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/** A fix in a workspace without a repository: the server has no clone, so the agent does the git work itself. */
export function withAgentMerging(instructions: string): string {
  return [
    instructions.trimEnd(),
    "",
    "This workspace has no repository on the server, so nothing has been merged for you. Do it yourself:",
    "- check out the pull request's branch and fetch the latest base branch;",
    "- merge the base branch into it (or rebase onto it) and resolve the conflicts as above;",
    "- push the branch, so that the pull request no longer has conflicts.",
    "Exit with status 0 only when the resolved branch is pushed.",
  ].join("\n");
}

let cached: string | undefined;
function template(): string {
  cached ??= fs.readFileSync(templatePath(), "utf8");
  return cached;
}

/** FIX_CONFLICTS_TEMPLATE names another file; the default is read from the app's directory at run time. */
function templatePath(): string {
  return process.env.FIX_CONFLICTS_TEMPLATE
    ? path.resolve(/*turbopackIgnore: true*/ process.env.FIX_CONFLICTS_TEMPLATE)
    : path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "runner-process", "templates", "fix-conflicts.md");
}
