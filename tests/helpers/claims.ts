import { expect } from "vitest";
import { client, newUser, newWorkspace, sharedServer } from "./api";
import { newTask, workspaceOn } from "./engine";

// The runner protocol driven by hand for the claim-policy tests (labels, fairness, caps, why a run
// waits): runners registered over HTTP, runs queued over HTTP, claims with no long poll. On a
// server of a file's own (no embedded runner), or on the shared one with a dedicated runner that
// only the file's workspaces chose (`dedicatedRunnerWorkspace`): then it takes no other file's runs,
// and no other runner takes the file's.

type Server = { call: ReturnType<typeof client> };

export const CLAIM = { version: "test-1", sandbox: "bubblewrap", free: 1, wait_seconds: 0 };

export type ProtocolRunner = Awaited<ReturnType<typeof registerRunner>>;

export async function registerRunner(
  server: Server,
  token: string,
  name: string,
  options: { capacity?: number; labels?: string[]; dedicated?: boolean } = {},
) {
  const created = await server.call("POST", "/api/runners", { token, json: { name, ...options } });
  expect(created.status).toBe(201);
  const runnerToken = created.body.token as string;
  const call = (method: string, path: string, json?: unknown) => server.call(method, `/api/runner${path}`, { token: runnerToken, json });
  return {
    id: created.body.id as string,
    record: created.body as Record<string, unknown>,
    token: runnerToken,
    call,
    /** One claim attempt: the job's execution id, or null. */
    async claim(): Promise<string | null> {
      const answer = await call("POST", "/claim", CLAIM);
      expect(answer.status).toBe(200);
      return (answer.body.job?.execution_id as string | undefined) ?? null;
    },
    async finish(executionId: string) {
      expect((await call("POST", `/executions/${executionId}/finish`, { status: "succeeded" })).status).toBe(204);
    },
    /** Deleted: it no longer counts as online. */
    async remove() {
      expect((await server.call("DELETE", `/api/runners/${created.body.id}`, { token })).status).toBe(204);
    },
  };
}

/** A fresh workspace on the server (or the given one), and a way to queue runs in it. */
export async function queueIn(server: Server, owned?: { token: string; wsId: string }) {
  const { token, wsId } = owned ?? (await workspaceOn(server));
  return {
    token,
    wsId,
    async queue(title: string, agentId?: string) {
      const task = await newTask(server.call, token, wsId, { title });
      const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {
        token,
        json: agentId ? { agent_id: agentId } : undefined,
        // Queued, not waiting for a runner the test drives by hand (RUN_START_WAIT_SECONDS).
        headers: { prefer: "wait=reactions, respond-async" },
      });
      expect(started.status).toBe(202);
      expect(started.body.status).toBe("queued");
      return { taskId: task.id, executionId: started.body.id as string };
    },
    execution: async (id: string) => (await server.call("GET", `/api/workspaces/${wsId}/executions/${id}`, { token })).body,
    cancel: async (id: string) => {
      expect((await server.call("POST", `/api/workspaces/${wsId}/executions/${id}/cancel`, { token })).status).toBe(200);
    },
  };
}

/** Each of `wsIds` lets only `runnerIds` take its jobs (PUT …/runners). */
export async function chooseRunners(server: Server, token: string, wsIds: string[], runnerIds: string[]) {
  for (const wsId of wsIds) {
    const chosen = await server.call("PUT", `/api/workspaces/${wsId}/runners`, { token, json: { runner_ids: runnerIds } });
    expect(chosen.status).toBe(200);
  }
}

/** A dedicated runner that only `wsIds` chose (their choice is set to it alone). */
export async function dedicatedRunner(
  server: Server,
  token: string,
  wsIds: string[],
  name: string,
  options: { capacity?: number; labels?: string[] } = {},
) {
  const runner = await registerRunner(server, token, name, { ...options, dedicated: true });
  await chooseRunners(server, token, wsIds, [runner.id]);
  return runner;
}

/**
 * On the shared server: an administrator's workspaces (one, and `more`) whose owners chose only a
 * dedicated runner of their own, driven by the test.
 */
export async function dedicatedRunnerWorkspace(name: string, options: { capacity?: number; labels?: string[] } = {}, more = 0) {
  const server = sharedServer();
  const owner = await newUser({ isAdmin: true });
  const wsIds: string[] = [];
  for (let i = 0; i <= more; i++) wsIds.push((await newWorkspace(owner.token)).id);
  const runner = await dedicatedRunner(server, owner.token, wsIds, name, options);
  const workspaces = await Promise.all(wsIds.map((wsId) => queueIn(server, { token: owner.token, wsId })));
  return { server, token: owner.token, runner, ws: workspaces[0], workspaces };
}
