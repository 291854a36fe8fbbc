import { SERVER_SECRET_NAME } from "@/lib/crypto/server-secret-name";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import type { Job } from "@/lib/runner-protocol";

// What an agent process sees. AGENT_COMMAND and the demo agent: the server's environment without
// the server's own secrets (an agent CLI still gets its own keys, e.g. ANTHROPIC_API_KEY). A
// profile's agent: only what a program needs to run at all (BASE), plus the variables its profile
// names in env_passthrough. Both get the TASKBOARD_* variables of the job (the agent token among them).

const BASE = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"];

export function agentEnvironment(
  job: Pick<Job, "env">,
  extra: { instructions: string; workdir: string; reportFile: string },
  agent?: AgentSnapshot,
): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  if (!agent || agent.inherit_env) {
    for (const [key, value] of Object.entries(process.env))
      if (!SERVER_SECRET_NAME.test(key) && !key.startsWith("TASKBOARD_")) env[key] = value;
  } else {
    for (const key of [...BASE, ...agent.env_passthrough]) {
      if (!SERVER_SECRET_NAME.test(key) && !key.startsWith("TASKBOARD_") && process.env[key] !== undefined) env[key] = process.env[key];
    }
  }
  return {
    ...(env as NodeJS.ProcessEnv),
    ...job.env,
    TASKBOARD_INSTRUCTIONS: extra.instructions,
    TASKBOARD_REPORT_FILE: extra.reportFile,
    TASKBOARD_WORKDIR: extra.workdir,
  };
}
