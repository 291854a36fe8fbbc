import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentEnvironment } from "@/lib/runner-process/environment";

// What an agent process sees, for the two kinds of agent: AGENT_COMMAND and the demo agent inherit
// the runner's environment less the server's secrets; a profile's agent gets only a few basics and
// what its profile passes through, and never a secret, whatever it names.

const extra = { instructions: "do it", workdir: "/work/tree", reportFile: "/tmp/report" };
const job = { env: { TASKBOARD_API_TOKEN: "tbg_agent", TASKBOARD_TASK_ID: "t1" } };
const snapshot = { name: "p", kind: "command" as const, command: "x", args: [] };

// The environment a runner started beside the server might have.
const runnerEnv = {
  DATABASE_URL: "postgresql://root@127.0.0.1/board",
  DATA_DIR: "/srv/board",
  AUTH_SECRET: "auth-secret-value",
  ADMIN_PASSWORD: "admin-password-value",
  GITHUB_APP_PRIVATE_KEY: "-----BEGIN KEY-----",
  SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
  TASKBOARD_RUNNER_TOKEN: "tbn_runner",
  SLACK_BOT_TOKEN: "xoxb-value",
  ANTHROPIC_API_KEY: "sk-model-key",
  LANG: "C.UTF-8",
  MY_TOOL_HOME: "/opt/tool",
};

beforeEach(() => {
  for (const [name, value] of Object.entries(runnerEnv)) vi.stubEnv(name, value);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const SECRETS = ["DATABASE_URL", "DATA_DIR", "AUTH_SECRET", "ADMIN_PASSWORD", "GITHUB_APP_PRIVATE_KEY", "SSH_AUTH_SOCK", "SLACK_BOT_TOKEN"];

describe("agentEnvironment", () => {
  it("gives AGENT_COMMAND and the demo agent the runner's environment less the server's secrets and its own token", () => {
    const env = agentEnvironment(job, extra, { ...snapshot, env_passthrough: [], inherit_env: true });
    for (const name of SECRETS) expect(env, name).not.toHaveProperty(name);
    // The runner's token is not a job variable: only the job's TASKBOARD_* reach the agent.
    expect(env.TASKBOARD_RUNNER_TOKEN).toBeUndefined();
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: "sk-model-key", LANG: "C.UTF-8", MY_TOOL_HOME: "/opt/tool" });
    expect(env).toMatchObject({
      ...job.env,
      TASKBOARD_INSTRUCTIONS: "do it",
      TASKBOARD_WORKDIR: "/work/tree",
      TASKBOARD_REPORT_FILE: "/tmp/report",
    });
    expect(Object.values(env).join("\n")).not.toMatch(/admin-password-value|auth-secret-value|tbn_runner|xoxb-value/);
  });

  it("gives a profile's agent the basics and what it passes through, never a secret it names", () => {
    const env = agentEnvironment(job, extra, {
      ...snapshot,
      env_passthrough: ["ANTHROPIC_API_KEY", "DATABASE_URL", "ADMIN_PASSWORD", "SLACK_BOT_TOKEN", "TASKBOARD_RUNNER_TOKEN"],
      inherit_env: false,
    });
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: "sk-model-key", LANG: "C.UTF-8", ...job.env });
    for (const name of [...SECRETS, "TASKBOARD_RUNNER_TOKEN", "MY_TOOL_HOME"]) expect(env, name).not.toHaveProperty(name);
  });
});
