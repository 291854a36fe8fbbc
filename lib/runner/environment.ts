import type { Execution } from "@/lib/generated/prisma/client";
import { apiUrl } from "@/lib/runner/config";

// What an agent process sees: the server's environment without the server's own secrets (an
// agent CLI still gets its own keys, e.g. ANTHROPIC_API_KEY), plus the TASKBOARD_* variables.

const SERVER_ONLY =
  /^(DATABASE_URL|DATABASE_POOL_SIZE|TEST_DATABASE_URL|DATA_DIR|NEXTAUTH_.*|AUTH_.*|ADMIN_.*|GITHUB_APP_.*|__NEXT.*|NEXT_.*)$|SECRET|PASSWORD|PRIVATE_KEY/;

export function agentEnvironment(
  execution: Execution & { task: { title: string; prUrl: string | null } },
  extra: { secret: string; workdir: string; reportFile: string },
): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!SERVER_ONLY.test(key)) env[key] = value;
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
