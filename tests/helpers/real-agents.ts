import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../fixtures/scripted-model";
import { engineServer, eventually, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "./engine";

// The real agent CLIs (Claude Code, Codex, Gemini CLI), started by the server from its own
// installation through the shipped presets, against the scripted model server. The server's
// environment points every vendor's base URL at the fake, with a made-up key; the presets pass
// them through, as a company gateway would be.

export interface Entry {
  seq: number;
  type: string;
  update: Record<string, any>;
}

export interface RealAgentWorld {
  model: ScriptedModel;
  store: Store;
  server: EngineServer;
  token: string;
  wsId: string;
  root: string;
  base: () => string;
  stop: () => Promise<void>;
}

export async function realAgentWorld(label: string, env: Record<string, string> = {}): Promise<RealAgentWorld> {
  const model = await startScriptedModel();
  const store = await newStore(label);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `taskboard-${label}-work-`));
  const server = await engineServer(store, {
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-ant-test-key",
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_API_KEY: "sk-test-key",
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_API_KEY: "gemini-test-key",
    AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
    AGENT_TIMEOUT_SECONDS: "120",
    AGENT_KILL_GRACE_SECONDS: "1",
    AGENT_LOG_FLUSH_MS: "100",
    ...env,
  });
  const { token, wsId } = await workspaceOn(server);
  const connected = await server.call("PUT", `/api/workspaces/${wsId}/repository`, {
    token,
    json: { url: bareRemote(root, { "README.md": "hello\n" }) },
  });
  expect(connected.status).toBe(200);
  return {
    model,
    store,
    server,
    token,
    wsId,
    root,
    base: () => `/api/workspaces/${wsId}`,
    async stop() {
      await server.stop();
      await store.drop();
      await model.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A profile made from the server's preset, as Settings makes it, with what a person may add. */
export async function presetProfile(world: RealAgentWorld, presetId: string, extra: Record<string, unknown> = {}, installed = true) {
  const presets = await world.server.call("GET", `${world.base()}/agents/presets`, { token: world.token });
  const preset = presets.body.find((p: { preset: string }) => p.preset === presetId);
  expect(preset).toMatchObject({ installed });
  const created = await world.server.call("POST", `${world.base()}/agents`, {
    token: world.token,
    json: {
      name: `${preset.name} ${Date.now()}`,
      kind: preset.kind,
      command: preset.command,
      args: preset.args,
      env_passthrough: preset.env_passthrough,
      preset: preset.preset,
      ...extra,
    },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; name: string };
}

export async function startRun(world: RealAgentWorld, taskId: string, json: Record<string, unknown>) {
  const started = await world.server.call("POST", `${world.base()}/tasks/${taskId}/runs`, { token: world.token, json });
  expect(started.status).toBe(202);
  return started.body as { id: string; runner_pid: number | null };
}

export async function task(world: RealAgentWorld, title: string) {
  return newTask(world.server.call, world.token, world.wsId, { title });
}

export async function entries(world: RealAgentWorld, executionId: string): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let offset = 0; ;) {
    const page = await world.server.call("GET", `${world.base()}/executions/${executionId}/log?offset=${offset}`, { token: world.token });
    expect(page.status).toBe(200);
    all.push(...page.body.entries);
    if (page.body.next_offset === offset) return all;
    offset = page.body.next_offset;
  }
}

export async function openPermission(world: RealAgentWorld, taskId: string, executionId: string) {
  return eventually(
    async () => {
      const list = await world.server.call("GET", `${world.base()}/questions?task_id=${taskId}&status=open`, { token: world.token });
      return list.body.find((q: { execution_id: string | null }) => q.execution_id === executionId);
    },
    90_000,
    "the permission question",
  );
}

/** The runner's `permission` log entry of the open request (written just after the question). */
export function permissionEntry(world: RealAgentWorld, executionId: string): Promise<Entry> {
  return eventually(async () => (await entries(world, executionId)).find((e) => e.type === "permission"), 20_000, "the permission entry");
}

export async function answer(world: RealAgentWorld, questionId: string, option: string) {
  const answered = await world.server.call("POST", `${world.base()}/questions/${questionId}/answer`, {
    token: world.token,
    json: { answer: option },
  });
  expect(answered.status).toBe(200);
}

export function done(world: RealAgentWorld, executionId: string) {
  return finished(world.server.call, world.token, world.wsId, executionId, 120_000);
}

export async function runOf(world: RealAgentWorld, taskId: string) {
  return (await world.server.call("GET", `${world.base()}/tasks/${taskId}/runs`, { token: world.token })).body[0];
}

export async function diffOf(world: RealAgentWorld, taskId: string) {
  const diff = await world.server.call("GET", `${world.base()}/tasks/${taskId}/diff`, { token: world.token });
  expect(diff.status).toBe(200);
  return diff.body as { files: { path: string; status: string; hunks: { lines: { type: string; text: string }[] }[] }[] };
}

export function said(log: Entry[]): string {
  return log
    .filter((e) => e.type === "agent_message_chunk")
    .map((e) => e.update.content?.text ?? "")
    .join("");
}

/** The task's worktree (AGENT_WORKDIR of realAgentWorld). */
export function worktree(world: RealAgentWorld, taskId: string) {
  return path.join(world.root, "work", world.wsId, taskId);
}

function bareRemote(root: string, files: Record<string, string>): string {
  const work = path.join(root, "seed");
  const remote = path.join(root, "remote.git");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work });
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(work, file), text);
  git("add", "-A");
  git("commit", "-q", "-m", "seed");
  git("remote", "add", "origin", remote);
  git("push", "-q", "origin", "main");
  return remote;
}
