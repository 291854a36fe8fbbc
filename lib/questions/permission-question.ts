import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { Db, Tx } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { MAX_OPTIONS } from "@/lib/questions/schemas";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { executionEvent } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS } from "@/lib/runs/statuses";

// An agent's permission request (ACP session/request_permission) as a question on its task. The
// question's options are the names of the agent's options (at most MAX_OPTIONS, in its order); the
// row keeps which option id each name stands for (permission_options), so whichever instance takes
// the answer, the runner waiting on the agent can map it back. While one is open the run and its
// execution are `waiting_for_input`.

export interface PermissionOption {
  name: string;
  option_id: string;
  kind: string;
}

/** Names must tell the options apart: a repeated name gets its position appended. */
export function permissionOptions(request: RequestPermissionRequest): PermissionOption[] {
  const seen = new Set<string>();
  return request.options.slice(0, MAX_OPTIONS).map((option, index) => {
    let name = option.name.trim().slice(0, 480) || option.optionId;
    if (seen.has(name)) name = `${name} (${index + 1})`;
    seen.add(name);
    return { name, option_id: option.optionId, kind: option.kind };
  });
}

export function permissionTitle(request: RequestPermissionRequest): string {
  return request.toolCall.title?.trim() || `a ${request.toolCall.kind ?? "tool"} call`;
}

/** The question, and the run and execution `waiting_for_input` (only while the execution still runs). */
export async function raisePermissionQuestion(db: Db, execution: Execution, request: RequestPermissionRequest) {
  const options = permissionOptions(request);
  const title = permissionTitle(request);
  const rawInput = request.toolCall.rawInput;
  return db.$transaction(async (tx) => {
    const row = await tx.question.create({
      data: {
        workspaceId: execution.workspaceId,
        taskId: execution.taskId,
        executionId: execution.id,
        content: `The agent asks permission: ${title}`,
        context: rawInput === undefined || rawInput === null ? null : JSON.stringify(rawInput, null, 2).slice(0, 20_000),
        options: options.map((option) => option.name),
        permissionOptions: options.map((option) => ({ ...option })),
        priority: 1,
      },
      include: withTaskTitle,
    });
    const changed = await setWaiting(tx, execution.id, RUN_STATUS.running, RUN_STATUS.waiting_for_input);
    const question = serializeQuestion(row);
    await recordEvents(tx, execution.workspaceId, [{ type: "question.created", taskId: row.taskId, data: question }, ...changed]);
    return { question, options, title };
  });
}

/**
 * After the answer (or the cancel): an open question is closed as `cancelled`, and the run and
 * execution are `running` again unless another permission question of theirs is still open.
 */
export async function settlePermissionQuestion(db: Db, execution: Execution, questionId: string) {
  await db.$transaction(async (tx) => {
    const { count } = await tx.question.updateMany({
      where: { id: questionId, status: QUESTION_STATUS.open },
      data: { answer: "cancelled", status: QUESTION_STATUS.answered, answeredAt: new Date() },
    });
    const closed = count > 0 ? await tx.question.findUnique({ where: { id: questionId }, include: withTaskTitle }) : null;
    const stillOpen = await tx.question.count({ where: { executionId: execution.id, status: QUESTION_STATUS.open } });
    const changed = stillOpen === 0 ? await setWaiting(tx, execution.id, RUN_STATUS.waiting_for_input, RUN_STATUS.running) : [];
    await recordEvents(tx, execution.workspaceId, [
      ...(closed ? [{ type: "question.answered" as const, taskId: closed.taskId, data: serializeQuestion(closed) }] : []),
      ...changed,
    ]);
  });
}

/** The option id an answer stands for, or null (no such name: the request is answered cancelled). */
export function chosenOption(permission: unknown, answer: string | null): PermissionOption | null {
  if (!Array.isArray(permission) || answer === null) return null;
  return (permission as PermissionOption[]).find((option) => option.name === answer.trim()) ?? null;
}

async function setWaiting(tx: Tx, executionId: string, from: string, to: string) {
  const { count } = await tx.execution.updateMany({ where: { id: executionId, status: from }, data: { status: to } });
  if (count === 0) return [];
  const execution = await tx.execution.findUniqueOrThrow({ where: { id: executionId } });
  const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { status: to } });
  return [{ type: "run.updated" as const, taskId: run.taskId, data: serializeTaskRun(run) }, executionEvent(execution)];
}
