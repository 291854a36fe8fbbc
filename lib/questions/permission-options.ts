import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { MAX_OPTIONS } from "@/lib/questions/schemas";

// An agent's permission request (ACP session/request_permission) as a question's options. The
// question's options are the names of the agent's options (at most MAX_OPTIONS, in its order); the
// row keeps which option id each name stands for (permission_options), so whichever instance takes
// the answer, the runner waiting on the agent can map it back. The run's side (the question is asked
// and the run waits, lib/runs/raise-permission-question.ts) is the runs domain's: a question knows no run.

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

/** The option id an answer stands for, or null (no such name: the request is answered cancelled). */
export function chosenOption(permission: unknown, answer: string | null): PermissionOption | null {
  if (!Array.isArray(permission) || answer === null) return null;
  return (permission as PermissionOption[]).find((option) => option.name === answer.trim()) ?? null;
}
