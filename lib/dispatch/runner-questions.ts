import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Execution, Runner } from "@/lib/generated/prisma/client";
import { chosenOption } from "@/lib/questions/permission-options";
import { raisePermissionQuestion } from "@/lib/runs/raise-permission-question";
import { settlePermissionQuestion } from "@/lib/runs/settle-permission-question";
import { QUESTION_STATUS } from "@/lib/questions/statuses";
import { waitForAnswer } from "@/lib/questions/wait-for-answer";
import { openRunnerExecution, runnerExecution } from "@/lib/dispatch/runner-execution";
import type { permissionBody } from "@/lib/runner-protocol";

// An agent's permission request, asked by its runner: a question on the task (the run
// waiting_for_input), a long poll for the answer, and the settling once the agent has it. A run
// that has ended takes no question and gives no answer (409); settling only closes its question
// (answered `cancelled`), so a cancelled run leaves none open, and stays allowed.

export async function askPermission(db: Db, runner: Runner, executionId: string, body: z.output<typeof permissionBody>) {
  const execution = await openRunnerExecution(db, runner, executionId);
  const request = { sessionId: "", toolCall: body.tool_call, options: body.options } as unknown as RequestPermissionRequest;
  const { question, options, title } = await raisePermissionQuestion(db, execution, request);
  return { question_id: question.id, title, options };
}

/** The answer as the agent's option id, as soon as a person answers or after `seconds`. */
export async function awaitPermission(
  db: Db,
  runner: Runner,
  executionId: string,
  questionId: string,
  seconds: number,
  signal: AbortSignal,
) {
  return awaitPermissionAnswer(db, await openRunnerExecution(db, runner, executionId), questionId, seconds, signal);
}

/** The same for an execution already checked (also the embedded runner's way to wait). */
export async function awaitPermissionAnswer(db: Db, execution: Execution, questionId: string, seconds: number, signal: AbortSignal) {
  const executionId = execution.id;
  const row = await db.question.findFirst({ where: { id: questionId, executionId }, select: { permissionOptions: true } });
  if (!row) return { status: "gone" as const, option_id: null };
  try {
    const seen = await waitForAnswer(db, execution.workspaceId, questionId, seconds, signal);
    if (seen.status !== QUESTION_STATUS.answered) return { status: "open" as const, option_id: null };
    return { status: "answered" as const, option_id: chosenOption(row.permissionOptions, seen.answer)?.option_id ?? null };
  } catch {
    return { status: "gone" as const, option_id: null };
  }
}

export async function settlePermission(db: Db, runner: Runner, executionId: string, questionId: string) {
  const execution = await runnerExecution(db, runner, executionId);
  await settlePermissionQuestion(db, execution, questionId);
}
