import type { Execution } from "@/lib/generated/prisma/client";
import { SERVER_SECRET_NAME } from "@/lib/agents/schemas";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { apiUrl } from "@/lib/platform/runner-config";

// What an agent process sees. AGENT_COMMAND and the demo agent: the server's environment without
// the server's own secrets (an agent CLI still gets its own keys, e.g. ANTHROPIC_API_KEY). A
// profile's agent: only what a program needs to run at all (BASE), plus the variables its profile
// names in env_passthrough. Both get the TASKBOARD_* variables (the agent token among them).

const BASE = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"];

export function agentEnvironment(
  execution: Execution & { task: { title: string; prUrl: string | null } },
  extra: { secret: string; workdir: string; reportFile: string },
  agent?: AgentSnapshot,
): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  if (!agent || agent.inherit_env) {
    for (const [key, value] of Object.entries(process.env)) if (!SERVER_SECRET_NAME.test(key)) env[key] = value;
  } else {
    for (const key of [...BASE, ...agent.env_passthrough]) {
      if (!SERVER_SECRET_NAME.test(key) && !key.startsWith("TASKBOARD_") && process.env[key] !== undefined) env[key] = process.env[key];
    }
  }
  return {
    ...(env as NodeJS.ProcessEnv),
    TASKBOARD_INSTRUCTIONS: execution.instructions,
    TASKBOARD_TRIGGER: execution.trigger,
    TASKBOARD_TASK_ID: execution.taskId,
    TASKBOARD_TASK_TITLE: execution.task.title,
    TASKBOARD_PR_URL: execution.task.prUrl ?? "",
    TASKBOARD_WORKSPACE_ID: execution.workspaceId,
    TASKBOARD_EXECUTION_ID: execution.id,
    TASKBOARD_SESSION_NAME: execution.sessionName,
    TASKBOARD_API_URL: apiUrl(),
    TASKBOARD_API_TOKEN: extra.secret,
    TASKBOARD_REPORT_FILE: extra.reportFile,
    TASKBOARD_WORKDIR: extra.workdir,
  };
}
