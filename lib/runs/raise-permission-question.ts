import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { Db, Tx } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { permissionOptions, permissionTitle } from "@/lib/questions/permission-options";
import { serializeQuestion, withTaskTitle } from "@/lib/questions/serialize";
import { executionEvent } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS } from "@/lib/runs/statuses";

// A run's agent asks permission (ACP session/request_permission): a question on its task, and the
// run and its execution `waiting_for_input` while it is open. A change of the run's status, so the
// runs domain's; the question's options are the questions domain's (lib/questions/permission-options.ts).

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

/** The run and execution from one status to the other, if the execution is still in the first; their events. */
export async function setWaiting(tx: Tx, executionId: string, from: string, to: string) {
  const { count } = await tx.execution.updateMany({ where: { id: executionId, status: from }, data: { status: to } });
  if (count === 0) return [];
  const execution = await tx.execution.findUniqueOrThrow({ where: { id: executionId } });
  const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { status: to } });
  return [{ type: "run.updated" as const, taskId: run.taskId, data: serializeTaskRun(run) }, executionEvent(execution)];
}
